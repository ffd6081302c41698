import { fail } from '../../lib/errors.js';
import { bucketOf, bucketStarts, dayRange, formatDay, formatHour, seriesRange } from './series-buckets.js';
import * as repo from './series-repo.js';
/** Every bucket of the range, empty ones as 0, labelled as the API writes them. */
async function series(ctx, scope, range) {
    const { interval, from, to } = range;
    const starts = bucketStarts(range);
    if (interval === 'hour') {
        const sums = await repo.hourSums(ctx.db, scope, from * 24, to * 24 + 23);
        return starts.map((hour) => point(formatHour(hour), sums.get(hour)));
    }
    const days = await repo.daySums(ctx.db, scope, from, to);
    const buckets = new Map();
    for (const [day, sum] of days) {
        const into = buckets.get(bucketOf(day, interval)) ?? { clicks: 0, uniques: 0 };
        into.clicks += sum.clicks;
        into.uniques += sum.uniques;
        buckets.set(bucketOf(day, interval), into);
    }
    return starts.map((day) => point(formatDay(day), buckets.get(day)));
}
const point = (date, sum) => ({ date, clicks: sum?.clicks ?? 0, uniqueClicks: sum?.uniques ?? 0 });
const NAMES = { link: 'Link', qr: 'QR code', campaign: 'Campaign', channel: 'Channel' };
async function own(ctx, what, userId, id) {
    if (!(await repo.owns(ctx.db, what, userId, id)))
        throw fail('not_found', NAMES[what]);
}
/** Clicks over time of one of the account's links or QR codes; the range is checked before the ownership. */
export async function targetSeries(ctx, userId, kind, id, query) {
    const range = seriesRange(query);
    await own(ctx, kind, userId, id);
    return series(ctx, { target: kind, id }, range);
}
/** Clicks over time of all the account's links and QR codes, or of one of its campaigns or channels. */
export async function accountSeries(ctx, userId, query) {
    const range = seriesRange(query);
    const { campaign, channel } = query;
    if (campaign && channel)
        throw fail('invalid_field', 'Send campaign or channel, not both.');
    if (campaign)
        await own(ctx, 'campaign', userId, campaign);
    if (channel)
        await own(ctx, 'channel', userId, channel);
    return series(ctx, { userId, campaignId: campaign, channelId: channel }, range);
}
/**
 * A link's or QR code's clicks and unique clicks between two days (both optional), summed from its
 * buckets; null when neither is given. The caller checks ownership.
 */
export async function rangeTotals(ctx, kind, id, query) {
    if (!query.from && !query.to)
        return null;
    const { from, to } = dayRange(query);
    let clicks = 0;
    let uniqueClicks = 0;
    for (const sum of (await repo.daySums(ctx.db, { target: kind, id }, from, to)).values()) {
        clicks += sum.clicks;
        uniqueClicks += sum.uniques;
    }
    return { clicks, uniqueClicks };
}
//# sourceMappingURL=series-service.js.map