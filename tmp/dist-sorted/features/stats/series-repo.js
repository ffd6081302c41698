import { sql } from 'kysely';
/** Per kind of target in the scope, the SQL listing their ids (a subquery keeps the ids in the database). */
function idSets(scope) {
    if ('target' in scope)
        return [{ kind: scope.target, ids: sql `(${scope.id})` }];
    const { userId, campaignId, channelId } = scope;
    if (campaignId)
        return [{ kind: 'link', ids: sql `(select id from links where user_id = ${userId} and campaign_id = ${campaignId})` }];
    if (channelId) {
        const items = (type, table) => sql `(select i.item_id from channel_items i join ${sql.table(table)} t on t.id = i.item_id
        where i.channel_id = ${channelId} and i.item_type = ${type} and t.user_id = ${userId})`;
        return [{ kind: 'link', ids: items('links', 'links') }, { kind: 'qr', ids: items('qr', 'qr_codes') }];
    }
    return [
        { kind: 'link', ids: sql `(select id from links where user_id = ${userId})` },
        { kind: 'qr', ids: sql `(select id from qr_codes where user_id = ${userId})` },
    ];
}
function add(into, rows) {
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
const hourCounts = (kind, ids, fromHour, toHour) => sql `(
  select hour, clicks, uniques from click_hours
    where target_kind = ${kind} and target_id in ${ids} and hour >= ${fromHour} and hour <= ${toHour}
  union all select hour, hour_clicks, hour_uniques from click_summaries
    where target_kind = ${kind} and target_id in ${ids} and hour >= ${fromHour} and hour <= ${toHour} and hour_clicks > 0) h`;
/** A whole account's series reads its own buckets (src/db/migrations/0006), a row per bucket whatever its links. */
const wholeAccount = (scope) => 'userId' in scope && !scope.campaignId && !scope.channelId ? scope.userId : null;
/** The scope's clicks per UTC hour from `fromHour` to `toHour` (both included); hours without clicks are absent. */
export async function hourSums(db, scope, fromHour, toHour) {
    const sums = new Map();
    const account = wholeAccount(scope);
    if (account !== null) {
        add(sums, (await sql `select hour as bucket, clicks, uniques from account_hours
      where user_id = ${account} and hour >= ${fromHour} and hour <= ${toHour}`.execute(db)).rows);
        return sums;
    }
    for (const { kind, ids } of idSets(scope)) {
        const { rows } = await sql `select hour as bucket, sum(clicks) as clicks, sum(uniques) as uniques
      from ${hourCounts(kind, ids, fromHour, toHour)} group by hour`.execute(db);
        add(sums, rows);
    }
    return sums;
}
/**
 * The scope's clicks per UTC day from `fromDay` to `toDay`: rolled-up days plus the hours not rolled up
 * yet, summed per day (the day at the retention cut-off has both).
 */
export async function daySums(db, scope, fromDay, toDay) {
    const sums = new Map();
    const account = wholeAccount(scope);
    if (account !== null) {
        add(sums, (await sql `select day as bucket, clicks, uniques from account_days
      where user_id = ${account} and day >= ${fromDay} and day <= ${toDay}`.execute(db)).rows);
        add(sums, (await sql `select hour / 24 as bucket, sum(clicks) as clicks, sum(uniques) as uniques from account_hours
      where user_id = ${account} and hour >= ${fromDay * 24} and hour <= ${toDay * 24 + 23} group by hour / 24`.execute(db)).rows);
        return sums;
    }
    for (const { kind, ids } of idSets(scope)) {
        const days = await sql `select day as bucket, sum(clicks) as clicks, sum(uniques) as uniques from click_days
      where target_kind = ${kind} and target_id in ${ids} and day >= ${fromDay} and day <= ${toDay} group by day`.execute(db);
        const hours = await sql `select hour / 24 as bucket, sum(clicks) as clicks, sum(uniques) as uniques
      from ${hourCounts(kind, ids, fromDay * 24, toDay * 24 + 23)} group by hour / 24`.execute(db);
        add(sums, days.rows);
        add(sums, hours.rows);
    }
    return sums;
}
const OWNED = { link: 'links', qr: 'qr_codes', campaign: 'campaigns', channel: 'channels' };
/** Whether the account owns that link, QR code, campaign or channel. */
export async function owns(db, what, userId, id) {
    const { rows } = await sql `select 1 from ${sql.table(OWNED[what])} where id = ${id} and user_id = ${userId}`.execute(db);
    return rows.length > 0;
}
//# sourceMappingURL=series-repo.js.map