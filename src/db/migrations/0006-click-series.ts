import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
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
 * written by the upsert that writes the row anyway, so a link visited once per batch costs no second b-tree
 * page per visit (docs/performance.md#series-open-hour). The upsert always stores the batch's hour; triggers
 * that see the replaced values (the row is locked by the update, so no two writers move it) then keep the
 * later hour open: a later batch hour closes the stored one into click_hours, and an earlier one (a late
 * batch of another writer) is undone by restoring the stored hour, whose update closes the batch's hour.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await bucketTable(db, 'click_hours', 'hour');
  await bucketTable(db, 'click_days', 'day');
  await db.schema
    .alterTable('click_summaries')
    .addColumn('hour', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('click_summaries')
    .addColumn('hour_clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('click_summaries')
    .addColumn('hour_uniques', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await closeHourTrigger(db);
  await accountTable(db, 'account_hours', 'hour');
  await accountTable(db, 'account_days', 'day');
}

const CLOSE_HOUR = sql`insert into click_hours (target_kind, target_id, hour, clicks, uniques)
  values (old.target_kind, old.target_id, old.hour, old.hour_clicks, old.hour_uniques)
  on conflict (target_kind, target_id, hour) do update
  set clicks = click_hours.clicks + excluded.clicks, uniques = click_hours.uniques + excluded.uniques`;
const REPLACED = sql`new.hour > old.hour and old.hour_clicks > 0`;
const RESTORE_HOUR = sql`update click_summaries set hour = old.hour, hour_clicks = old.hour_clicks, hour_uniques = old.hour_uniques
  where target_kind = old.target_kind and target_id = old.target_id`;
const EARLIER = sql`new.hour < old.hour`;

async function closeHourTrigger(db: Kysely<unknown>): Promise<void> {
  await summaryTrigger(db, 'click_summaries_close_hour', 'hour', REPLACED, CLOSE_HOUR);
  await summaryTrigger(db, 'click_summaries_keep_later_hour', 'hour', EARLIER, RESTORE_HOUR);
}

/** A trigger run after an update of `column` of a click_summaries row, when `when` holds: one statement, `old`/`new` alike on both dialects. */
export async function summaryTrigger(
  db: Kysely<unknown>,
  name: string,
  column: string,
  when: ReturnType<typeof sql>,
  body: ReturnType<typeof sql>,
): Promise<void> {
  const trigger = sql.raw(name);
  const of = sql.raw(column);
  if (!isPostgres(db)) {
    await sql`create trigger ${trigger} after update of ${of} on click_summaries when ${when} begin ${body}; end`.execute(db);
    return;
  }
  await sql`create function ${trigger}() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`.execute(db);
  await sql`create trigger ${trigger} after update of ${of} on click_summaries for each row when (${when})
    execute function ${trigger}()`.execute(db);
}

/**
 * An account's buckets, kept beside its targets' by the same writes and roll-up: the account-wide series
 * reads a row per bucket, not one per link (docs/performance.md#account-series).
 */
async function accountTable(db: Kysely<unknown>, table: string, bucket: string): Promise<void> {
  await keyedOnly(
    db,
    db.schema
      .createTable(table)
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn(bucket, 'integer', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('uniques', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${table}_pk`, ['user_id', bucket]) as Builder,
  ).execute();
}

async function bucketTable(db: Kysely<unknown>, table: string, bucket: string): Promise<void> {
  await keyedOnly(
    db,
    db.schema
      .createTable(table)
      .addColumn('target_kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn(bucket, 'integer', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('uniques', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${table}_pk`, ['target_kind', 'target_id', bucket]) as Builder,
  ).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
