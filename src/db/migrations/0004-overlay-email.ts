import type { Kysely } from 'kysely';

/** A contact overlay's e-mail address: its button link only takes http(s) URLs, so visitors had no way to write. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('overlays')
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('overlays').dropColumn('email').execute();
}
