import type { Kysely } from 'kysely';
import { keyedOnly, type Builder } from './0001-initial.js';

/**
 * Clicks over time: the click writer adds each batch to one row per target and UTC hour (`hour` counts
 * hours since 1970), and hours older than SERIES_HOURLY_DAYS are rolled up into a row per target and UTC
 * day (`day` counts days since 1970). Two tables rather than a granularity column: each keeps a plain
 * primary key the writer and the series queries range over, and the hourly one stays small. `uniques`
 * counts visitors first seen for the target in that bucket, so a target's buckets add up to its summary.
 * Clicks counted before this migration have no time and stay in the totals only.
 *
 * A target's latest hour is kept open in its click_summaries row (`hour`, `hour_clicks`, `hour_uniques`),
 * added to by the upsert that writes the row anyway, and moves to click_hours only when a later hour comes:
 * a link visited once per batch costs no second b-tree page per visit (docs/performance.md#series-open-hour).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await bucketTable(db, 'click_hours', 'hour');
  await bucketTable(db, 'click_days', 'day');
  await db.schema.alterTable('click_summaries').addColumn('hour', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('click_summaries').addColumn('hour_clicks', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('click_summaries').addColumn('hour_uniques', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}

async function bucketTable(db: Kysely<unknown>, table: string, bucket: string): Promise<void> {
  await keyedOnly(db, db.schema.createTable(table)
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn(bucket, 'integer', (c) => c.notNull())
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('uniques', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint(`${table}_pk`, ['target_kind', 'target_id', bucket]) as Builder).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
