import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/connect.js';
import type { CountedKind } from '../db/types.js';

/** One kind of target and the subquery listing their ids. */
export interface IdSet {
  kind: CountedKind;
  ids: RawBuilder<unknown>;
}

/** Whose clicks a series sums: one link or QR code, a whole account (its own buckets), or sets of targets. */
export type SeriesScope = { target: CountedKind; id: number } | { account: number } | { sets: IdSet[] };

export interface Bucket {
  clicks: number;
  uniques: number;
}

function idSets(scope: Exclude<SeriesScope, { account: number }>): IdSet[] {
  return 'target' in scope ? [{ kind: scope.target, ids: sql`(${scope.id})` }] : scope.sets;
}

type Row = { bucket: number | string; clicks: number | string; uniques: number | string };

function add(into: Map<number, Bucket>, rows: Row[]): void {
  for (const row of rows) {
    const bucket = Number(row.bucket);
    const sum = into.get(bucket) ?? { clicks: 0, uniques: 0 };
    sum.clicks += Number(row.clicks);
    sum.uniques += Number(row.uniques);
    into.set(bucket, sum);
  }
}

/**
 * Hourly counts of one kind of target from `fromHour` to `toHour` (both included): the closed hours of
 * click_hours and each summary's open hour, the latest one, not moved there yet (src/db/migrations/0006).
 */
const hourCounts = (kind: CountedKind, ids: RawBuilder<unknown>, fromHour: number, toHour: number) => sql`(
  select hour, clicks, uniques from click_hours
    where target_kind = ${kind} and target_id in ${ids} and hour >= ${fromHour} and hour <= ${toHour}
  union all select hour, hour_clicks, hour_uniques from click_summaries
    where target_kind = ${kind} and target_id in ${ids} and hour >= ${fromHour} and hour <= ${toHour} and hour_clicks > 0) h`;

/** A whole account's series reads its own buckets (src/db/migrations/0006), a row per bucket whatever its links. */
const wholeAccount = (scope: SeriesScope): number | null => ('account' in scope ? scope.account : null);

/** The scope's clicks per UTC hour from `fromHour` to `toHour` (both included); hours without clicks are absent. */
export async function hourSums(db: Db, scope: SeriesScope, fromHour: number, toHour: number): Promise<Map<number, Bucket>> {
  const sums = new Map<number, Bucket>();
  const account = wholeAccount(scope);
  if (account !== null) {
    add(
      sums,
      (
        await sql<Row>`select hour as bucket, clicks, uniques from account_hours
      where user_id = ${account} and hour >= ${fromHour} and hour <= ${toHour}`.execute(db)
      ).rows,
    );
    return sums;
  }
  for (const { kind, ids } of idSets(scope as Exclude<SeriesScope, { account: number }>)) {
    const { rows } = await sql<Row>`select hour as bucket, sum(clicks) as clicks, sum(uniques) as uniques
      from ${hourCounts(kind, ids, fromHour, toHour)} group by hour`.execute(db);
    add(sums, rows);
  }
  return sums;
}

/**
 * The scope's clicks per UTC day from `fromDay` to `toDay`: rolled-up days plus the hours not rolled up
 * yet, summed per day (the day at the retention cut-off has both).
 */
export async function daySums(db: Db, scope: SeriesScope, fromDay: number, toDay: number): Promise<Map<number, Bucket>> {
  const sums = new Map<number, Bucket>();
  const account = wholeAccount(scope);
  if (account !== null) {
    add(
      sums,
      (
        await sql<Row>`select day as bucket, clicks, uniques from account_days
      where user_id = ${account} and day >= ${fromDay} and day <= ${toDay}`.execute(db)
      ).rows,
    );
    add(
      sums,
      (
        await sql<Row>`select hour / 24 as bucket, sum(clicks) as clicks, sum(uniques) as uniques from account_hours
      where user_id = ${account} and hour >= ${fromDay * 24} and hour <= ${toDay * 24 + 23} group by hour / 24`.execute(db)
      ).rows,
    );
    return sums;
  }
  for (const { kind, ids } of idSets(scope as Exclude<SeriesScope, { account: number }>)) {
    const days = await sql<Row>`select day as bucket, sum(clicks) as clicks, sum(uniques) as uniques from click_days
      where target_kind = ${kind} and target_id in ${ids} and day >= ${fromDay} and day <= ${toDay} group by day`.execute(db);
    const hours = await sql<Row>`select hour / 24 as bucket, sum(clicks) as clicks, sum(uniques) as uniques
      from ${hourCounts(kind, ids, fromDay * 24, toDay * 24 + 23)} group by hour / 24`.execute(db);
    add(sums, days.rows);
    add(sums, hours.rows);
  }
  return sums;
}

type TargetRow = { target: number | string; bucket: number | string; clicks: number | string };

/**
 * Clicks per target and UTC day from `fromDay` to `toDay`, for many targets in one read (the links list's
 * sparklines): rolled-up days plus the hours not rolled up yet. Answers target id → day → clicks.
 */
export async function dayClicksPerTarget(db: Db, kind: CountedKind, ids: RawBuilder<unknown>, fromDay: number, toDay: number) {
  const [fromHour, toHour] = [fromDay * 24, toDay * 24 + 23];
  const { rows } = await sql<TargetRow>`select target, bucket, sum(clicks) as clicks from (
      select target_id as target, day as bucket, clicks from click_days
        where target_kind = ${kind} and target_id in ${ids} and day >= ${fromDay} and day <= ${toDay}
      union all select target_id, hour / 24, clicks from click_hours
        where target_kind = ${kind} and target_id in ${ids} and hour >= ${fromHour} and hour <= ${toHour}
      union all select target_id, hour / 24, hour_clicks from click_summaries
        where target_kind = ${kind} and target_id in ${ids} and hour >= ${fromHour} and hour <= ${toHour} and hour_clicks > 0
    ) t group by target, bucket`.execute(db);
  const sums = new Map<number, Map<number, number>>();
  for (const row of rows) {
    const days = sums.get(Number(row.target)) ?? new Map<number, number>();
    days.set(Number(row.bucket), Number(row.clicks));
    sums.set(Number(row.target), days);
  }
  return sums;
}
