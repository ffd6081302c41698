import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { AccountDaysTable, ClickDaysTable, CountedKind } from '../db/types.js';
import { upsertAccountDays } from './account-store.js';
import { isPostgres } from '../db/dialect.js';
import { lockAgainst } from './forget.js';
import { keyIn, upsertHours } from './store.js';
import { hourOf } from './visit-columns.js';

/** Rows moved per transaction: short enough that the click writer never waits long for the lock. */
const BATCH = 1_000;
const PAUSE_MS = 20;
const EVERY_MS = 3_600_000;
const FIRST_AFTER_MS = 60_000;

interface Key {
  target_kind: CountedKind;
  target_id: number;
  hour: number;
}

interface RollUpOptions {
  batch?: number;
  shouldStop?: () => boolean;
}

/** The first hour kept hourly when `days` days of hours are kept. */
export const hourlyCutoff = (days: number, now = Date.now()) => hourOf(now) - days * 24;

/**
 * Rolls every hourly bucket before `beforeHour` into its UTC day, walking the primary key in batches of
 * `batch` rows, each moved in a transaction of its own (deleted, then added to the day rows it returned,
 * so two nodes rolling up at once never count a row twice). Returns the number of hourly rows moved.
 */
export async function rollUpHours(db: Db, beforeHour: number, options: RollUpOptions = {}): Promise<number> {
  const { batch = BATCH, shouldStop = () => false } = options;
  await closeOpenHours(db, beforeHour, batch, shouldStop);
  await rollUpAccountHours(db, beforeHour, batch, shouldStop);
  let after: Key | null = null;
  let moved = 0;
  while (!shouldStop()) {
    const keys = await nextKeys(db, beforeHour, after, batch);
    const last = keys[keys.length - 1];
    if (!last) break;
    moved += await moveRange(db, beforeHour, after, last);
    if (keys.length < batch) break;
    after = last;
    await sleep(PAUSE_MS);
  }
  return moved;
}

/**
 * Moves the open hours (kept in click_summaries until a later hour comes) older than `beforeHour` to
 * click_hours, where the roll-up finds them: a link not visited since keeps no hour past the retention.
 */
async function closeOpenHours(db: Db, beforeHour: number, batch: number, shouldStop: () => boolean): Promise<void> {
  let after: Key | null = null;
  while (!shouldStop()) {
    const moved = await db.transaction().execute(async (trx) => {
      await lockAgainst(trx, 'deletes');
      let query = trx
        .selectFrom('click_summaries')
        .select(['target_kind', 'target_id', 'hour', 'hour_clicks', 'hour_uniques'])
        .where('hour', '<', beforeHour)
        .where('hour_clicks', '>', 0);
      if (after) query = query.where(sql<boolean>`(target_kind, target_id) > (${after.target_kind}, ${after.target_id})`);
      query = query.orderBy('target_kind').orderBy('target_id').limit(batch);
      const rows = await (isPostgres(trx) ? query.forUpdate() : query).execute();
      if (rows.length === 0) return rows;
      await upsertHours(
        trx,
        rows.map(({ hour_clicks, hour_uniques, ...key }) => ({ ...key, clicks: hour_clicks, uniques: hour_uniques })),
      );
      await trx.updateTable('click_summaries').set({ hour_clicks: 0, hour_uniques: 0 }).where(keyIn(rows)).execute();
      return rows;
    });
    if (moved.length < batch) break;
    after = moved[moved.length - 1]!;
    await sleep(PAUSE_MS);
  }
}

const keyOf = (key: Key) => sql`(${key.target_kind}, ${key.target_id}, ${key.hour})`;
const KEY = sql`(target_kind, target_id, hour)`;

function nextKeys(db: Db, beforeHour: number, after: Key | null, batch: number): Promise<Key[]> {
  let query = db.selectFrom('click_hours').select(['target_kind', 'target_id', 'hour']).where('hour', '<', beforeHour);
  if (after) query = query.where(sql<boolean>`${KEY} > ${keyOf(after)}`);
  return query.orderBy('target_kind').orderBy('target_id').orderBy('hour').limit(batch).execute();
}

function moveRange(db: Db, beforeHour: number, after: Key | null, last: Key): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockAgainst(trx, 'deletes');
    let query = trx
      .deleteFrom('click_hours')
      .where('hour', '<', beforeHour)
      .where(sql<boolean>`${KEY} <= ${keyOf(last)}`);
    if (after) query = query.where(sql<boolean>`${KEY} > ${keyOf(after)}`);
    const rows = await query.returning(['target_kind', 'target_id', 'hour', 'clicks', 'uniques']).execute();
    const days = new Map<string, ClickDaysTable>();
    for (const row of rows) {
      const day = Math.floor(Number(row.hour) / 24);
      const key = `${row.target_kind}:${row.target_id}:${day}`;
      const into = days.get(key) ?? { target_kind: row.target_kind, target_id: Number(row.target_id), day, clicks: 0, uniques: 0 };
      into.clicks += Number(row.clicks);
      into.uniques += Number(row.uniques);
      days.set(key, into);
    }
    if (days.size > 0) await upsertDays(trx, [...days.values()]);
    return rows.length;
  });
}

/** The same for accounts' buckets: `batch` of the oldest hours per transaction, added to their days. */
async function rollUpAccountHours(db: Db, beforeHour: number, batch: number, shouldStop: () => boolean): Promise<void> {
  while (!shouldStop()) {
    const moved = await db.transaction().execute(async (trx) => {
      await lockAgainst(trx, 'deletes');
      const oldest = sql`(select user_id, hour from account_hours where hour < ${beforeHour} order by user_id, hour limit ${batch})`;
      const rows = await trx
        .deleteFrom('account_hours')
        .where(sql<boolean>`(user_id, hour) in ${oldest}`)
        .returning(['user_id', 'hour', 'clicks', 'uniques'])
        .execute();
      const days = new Map<string, AccountDaysTable>();
      for (const row of rows) {
        const day = Math.floor(Number(row.hour) / 24);
        const into = days.get(`${row.user_id}:${day}`) ?? { user_id: Number(row.user_id), day, clicks: 0, uniques: 0 };
        into.clicks += Number(row.clicks);
        into.uniques += Number(row.uniques);
        days.set(`${row.user_id}:${day}`, into);
      }
      if (days.size > 0)
        await upsertAccountDays(
          trx,
          [...days.values()].sort((a, b) => a.user_id - b.user_id || a.day - b.day),
        );
      return rows.length;
    });
    if (moved < batch) break;
    await sleep(PAUSE_MS);
  }
}

async function upsertDays(db: Db, rows: ClickDaysTable[]): Promise<void> {
  await db
    .insertInto('click_days')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['target_kind', 'target_id', 'day']).doUpdateSet((eb) => ({
        clicks: eb('click_days.clicks', '+', eb.ref('excluded.clicks')),
        uniques: eb('click_days.uniques', '+', eb.ref('excluded.uniques')),
      })),
    )
    .execute();
}

/** Rolls up old hours a minute after start and then hourly; the returned closer waits for a pass in flight. */
export function scheduleRollUp(db: Db, days: number, log: Logger): () => Promise<void> {
  return scheduleHourly((shouldStop) => rollUpHours(db, hourlyCutoff(days), { shouldStop }), log, 'rolling up hourly click buckets');
}

/**
 * Runs `pass` a minute after start and then hourly, passes never overlapping a close; the returned closer
 * stops the timers, asks a pass in flight to stop (`shouldStop`) and waits for it. Failures are logged.
 */
export function scheduleHourly(pass: (shouldStop: () => boolean) => Promise<unknown>, log: Logger, what: string): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = pass(() => stopped).catch((err: unknown) => log.error({ err }, `${what} failed; will retry`));
  };
  const first = setTimeout(run, FIRST_AFTER_MS);
  const timer = setInterval(run, EVERY_MS);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
