import { sql, type Kysely } from 'kysely';
import { withId, type Builder } from './0001-initial.js';

/**
 * API keys move out of `users` into a table of their own, so an account can hold several, each with a name,
 * scopes (JSON array; `["*"]` is everything) and an optional expiry. Every existing key becomes the account's
 * key "default" with `*`, so existing clients work unchanged. Times are `YYYY-MM-DD HH:MM:SS` (UTC).
 *
 * `users.api_key_hash` stays (SQLite cannot drop a UNIQUE column without rebuilding `users`, which every table
 * references) but no longer holds a hash: each row gets `retired:<id>`, a value no key hashes to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await (
    withId(db, 'api_keys')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('expires_at', 'text') as Builder
  ).execute();
  await db.schema.createIndex('api_keys_user_name').on('api_keys').columns(['user_id', 'name']).unique().execute();
  await sql`insert into api_keys (user_id, name, key_hash, scopes, created_at)
    select id, 'default', api_key_hash, '["*"]', created_at from users
    where api_key_hash <> '' and api_key_hash not like 'retired:%' order by id`.execute(db);
  await sql`update users set api_key_hash = 'retired:' || cast(id as text)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
