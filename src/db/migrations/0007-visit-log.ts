import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { summaryTrigger } from './0006-click-series.js';

/**
 * The visit log, kept VISIT_LOG_DAYS days: one `visit_packs` row per target and click batch, holding that
 * batch's counted visits of the target (bots excluded, as in the totals): its distinct labels as JSON and
 * per visit its second and label indexes as bytes (src/clicks/visit-log.ts). No IP
 * address, user agent or visitor hash is kept.
 *
 * Packs are only appended: there is no index by target, whose random inserts tripled the click writer's
 * cost (docs/performance.md#visit-packs). Instead each target's packs form a chain, newest first: its
 * click_summaries row (written by the batch anyway) points at its newest pack (`visit_pack`) and counts the
 * visits its packs hold (`visit_count`), and when the upsert moves `visit_pack`, a trigger stores the
 * replaced pointer as the new pack's `prev`, under the row lock the upsert holds. `at` is the second the
 * pack's first visit was served; the pruning deletes the oldest packs by id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('visit_packs')
    .addColumn('id', isPostgres(db) ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('prev', 'bigint')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    // Last, so walking a chain reads no overflow page of a long pack.
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('codes', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('click_summaries').addColumn('visit_pack', 'bigint').execute();
  await db.schema
    .alterTable('click_summaries')
    .addColumn('visit_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await summaryTrigger(
    db,
    'click_summaries_chain_visit_pack',
    'visit_pack',
    sql`new.visit_pack is distinct from old.visit_pack`,
    sql`update visit_packs set prev = old.visit_pack where id = new.visit_pack`,
  );
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
