import type { Kysely } from 'kysely';

/**
 * Routing rules, weighted splits, a visit cap and an expired-link destination (issue 27) as one JSON column
 * in add's request shapes: the redirect reads them with the row it already reads, and "" (nearly every
 * link) costs the hot path one string test (docs/decisions/0009-rules-and-splits.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('links')
    .addColumn('routing', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
