import type { Kysely } from 'kysely';
import { withId, type Builder } from './0001-initial.js';

/**
 * The account activity log: sign-ins, credential and key changes, imports and exports. It keeps the caller's
 * network (IPv4 /24, IPv6 /48) and browser family only, never an address or a User-Agent; rows older than
 * ACTIVITY_LOG_DAYS are pruned in the background (hence the index on created_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await (
    withId(db, 'account_activity')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('via', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull()) as Builder
  ).execute();
  await db.schema.createIndex('account_activity_user').on('account_activity').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('account_activity_created').on('account_activity').column('created_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
