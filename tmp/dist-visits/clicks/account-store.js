import { sql } from 'kysely';
/** Adds a batch's clicks to its accounts' hourly buckets (rows in lock order). */
export async function upsertAccountHours(db, rows) {
    if (rows.length === 0)
        return;
    await db.insertInto('account_hours').values(rows)
        .onConflict((oc) => oc.columns(['user_id', 'hour']).doUpdateSet((eb) => ({
        clicks: eb('account_hours.clicks', '+', eb.ref('excluded.clicks')),
        uniques: eb('account_hours.uniques', '+', eb.ref('excluded.uniques')),
    })))
        .execute();
}
/** Adds rolled-up hours to their accounts' days. */
export async function upsertAccountDays(db, rows) {
    await db.insertInto('account_days').values(rows)
        .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet((eb) => ({
        clicks: eb('account_days.clicks', '+', eb.ref('excluded.clicks')),
        uniques: eb('account_days.uniques', '+', eb.ref('excluded.uniques')),
    })))
        .execute();
}
/**
 * Takes the targets' clicks out of their owner's buckets, before their own rows are forgotten: the
 * account-wide series counts the links and QR codes the account has. Hours include each open hour.
 */
export async function subtractFromAccount(db, owner, kind, ids) {
    const hours = await sql `select hour as bucket, sum(clicks) as clicks, sum(uniques) as uniques from (
      select hour, clicks, uniques from click_hours where target_kind = ${kind} and target_id in (${sql.join(ids)})
      union all select hour, hour_clicks, hour_uniques from click_summaries
        where target_kind = ${kind} and target_id in (${sql.join(ids)}) and hour_clicks > 0) h
    group by hour order by hour`.execute(db);
    for (const h of hours.rows) {
        await db.updateTable('account_hours').where('user_id', '=', owner).where('hour', '=', Number(h.bucket))
            .set((eb) => ({ clicks: eb('clicks', '-', Number(h.clicks)), uniques: eb('uniques', '-', Number(h.uniques)) })).execute();
    }
    const days = await sql `select day as bucket, sum(clicks) as clicks, sum(uniques) as uniques from click_days
    where target_kind = ${kind} and target_id in (${sql.join(ids)}) group by day order by day`.execute(db);
    for (const d of days.rows) {
        await db.updateTable('account_days').where('user_id', '=', owner).where('day', '=', Number(d.bucket))
            .set((eb) => ({ clicks: eb('clicks', '-', Number(d.clicks)), uniques: eb('uniques', '-', Number(d.uniques)) })).execute();
    }
}
/** Forgets an account's buckets with the account. */
export async function forgetAccountSeries(db, owner) {
    await db.deleteFrom('account_hours').where('user_id', '=', owner).execute();
    await db.deleteFrom('account_days').where('user_id', '=', owner).execute();
}
//# sourceMappingURL=account-store.js.map