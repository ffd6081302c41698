import type { Kysely } from 'kysely';

/**
 * Tags: free labels on links, up to 10 per link, stored trimmed and lower-case. `user_id` is kept beside
 * `link_id` so the account's tag list, filters and renames read one index without joining `links`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_tags')
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_tags_pk', ['link_id', 'tag'])
    .execute();
  await db.schema.createIndex('link_tags_user_tag').on('link_tags').columns(['user_id', 'tag', 'link_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
