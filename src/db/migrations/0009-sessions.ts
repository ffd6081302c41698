import type { Kysely } from 'kysely';

/**
 * Dashboard sessions, shared by every node through the database so a sign-out anywhere is honoured everywhere.
 * Only the SHA-256 of the cookie's token is stored: a copy of the table signs no one in. Times are ISO 8601
 * strings in UTC (they sort as text); the idle end is last_seen_at plus SESSION_IDLE_MINUTES, computed on read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'expires_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
