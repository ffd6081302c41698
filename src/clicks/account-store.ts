import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { AccountDaysTable, AccountHoursTable, TargetKind } from '../db/types.js';

/** Adds clicks (negative to take them out) to accounts' hourly buckets, rows in lock order (account, hour). */
export async function upsertAccountHours(db: Db, rows: AccountHoursTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('account_hours')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'hour']).doUpdateSet((eb) => ({
        clicks: eb('account_hours.clicks', '+', eb.ref('excluded.clicks')),
        uniques: eb('account_hours.uniques', '+', eb.ref('excluded.uniques')),
      })),
    )
    .execute();
}

/** The same for accounts' daily buckets: rolled-up hours, or a deleted target's days taken out. */
export async function upsertAccountDays(db: Db, rows: AccountDaysTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('account_days')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'day']).doUpdateSet((eb) => ({
        clicks: eb('account_days.clicks', '+', eb.ref('excluded.clicks')),
        uniques: eb('account_days.uniques', '+', eb.ref('excluded.uniques')),
      })),
    )
    .execute();
}

type Sum = { bucket: number | string; clicks: number | string; uniques: number | string };
const taken = (row: Sum) => ({ clicks: -Number(row.clicks), uniques: -Number(row.uniques) });

/**
 * Takes the targets' clicks out of their owner's buckets, before their own rows are forgotten: the
 * account-wide series counts the links and QR codes the account has. Hours include each open hour.
 */
export async function subtractFromAccount(db: Db, owner: number, kind: TargetKind, ids: number[]): Promise<void> {
  const hours = await sql<Sum>`select hour as bucket, sum(clicks) as clicks, sum(uniques) as uniques from (
      select hour, clicks, uniques from click_hours where target_kind = ${kind} and target_id in (${sql.join(ids)})
      union all select hour, hour_clicks, hour_uniques from click_summaries
        where target_kind = ${kind} and target_id in (${sql.join(ids)}) and hour_clicks > 0) h
    group by hour order by hour`.execute(db);
  await upsertAccountHours(
    db,
    hours.rows.map((h) => ({ user_id: owner, hour: Number(h.bucket), ...taken(h) })),
  );
  const days = await sql<Sum>`select day as bucket, sum(clicks) as clicks, sum(uniques) as uniques from click_days
    where target_kind = ${kind} and target_id in (${sql.join(ids)}) group by day order by day`.execute(db);
  await upsertAccountDays(
    db,
    days.rows.map((d) => ({ user_id: owner, day: Number(d.bucket), ...taken(d) })),
  );
}

/** Forgets an account's buckets with the account. */
export async function forgetAccountSeries(db: Db, owner: number): Promise<void> {
  await db.deleteFrom('account_hours').where('user_id', '=', owner).execute();
  await db.deleteFrom('account_days').where('user_id', '=', owner).execute();
}
