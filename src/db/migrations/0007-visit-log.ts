import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The visit log: one row per counted visit (bots excluded, as in the totals) for VISIT_LOG_DAYS days. The
 * id grows with time (rowid / bigserial), so a target's newest visits are one descending range of the
 * (target_kind, target_id, id) index and the pruning walks the oldest rows by id. `at` is the second it
 * was served (seconds since 1970). Labels only: no IP address, user agent or visitor hash is kept.
 * PostgreSQL keeps a plain table too: monthly partitions were weighed and left out (docs/performance.md#visit-log).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('visits')
    .addColumn('id', isPostgres(db) ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('visits_target').on('visits').columns(['target_kind', 'target_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
