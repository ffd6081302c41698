import type { AppContext } from '../../context.js';
import type { CountedKind, TargetKind } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { bucketOf, bucketStarts, dayRange, formatDay, formatHour, seriesRange, type SeriesRange } from './series-buckets.js';
import * as repo from '../../clicks/series-repo.js';
import { accountScope, owns } from './targets.js';

export interface SeriesPoint {
  date: string;
  clicks: number;
  uniqueClicks: number;
}

export interface SeriesQuery {
  from?: string;
  to?: string;
  interval?: string;
  /** A link's split variant (docs/decisions/0009): its own buckets. */
  variant?: number;
}

/** Every bucket of the range, empty ones as 0, labelled as the API writes them. */
async function series(ctx: AppContext, scope: repo.SeriesScope, range: SeriesRange): Promise<SeriesPoint[]> {
  const { interval, from, to } = range;
  const starts = bucketStarts(range);
  if (interval === 'hour') {
    const sums = await repo.hourSums(ctx.db, scope, from * 24, to * 24 + 23);
    return starts.map((hour) => point(formatHour(hour), sums.get(hour)));
  }
  const days = await repo.daySums(ctx.db, scope, from, to);
  const buckets = new Map<number, repo.Bucket>();
  for (const [day, sum] of days) {
    const into = buckets.get(bucketOf(day, interval)) ?? { clicks: 0, uniques: 0 };
    into.clicks += sum.clicks;
    into.uniques += sum.uniques;
    buckets.set(bucketOf(day, interval), into);
  }
  return starts.map((day) => point(formatDay(day), buckets.get(day)));
}

const point = (date: string, sum?: repo.Bucket): SeriesPoint => ({ date, clicks: sum?.clicks ?? 0, uniqueClicks: sum?.uniques ?? 0 });

const NAMES = { link: 'Link', qr: 'QR code', campaign: 'Campaign', channel: 'Channel' } as const;

async function own(ctx: AppContext, what: keyof typeof NAMES, userId: number, id: number): Promise<void> {
  if (!(await owns(ctx.db, what, userId, id))) throw fail('not_found', NAMES[what]);
}

/** Clicks over time of one of the account's links or QR codes; the range is checked before the ownership. */
export async function targetSeries(ctx: AppContext, userId: number, kind: TargetKind, id: number, query: SeriesQuery) {
  const range = seriesRange(query);
  await own(ctx, kind, userId, id);
  const counted: CountedKind = kind === 'link' && query.variant !== undefined ? `variant:${query.variant}` : kind;
  return series(ctx, { target: counted, id }, range);
}

/** Clicks over time of all the account's links and QR codes, or of one of its campaigns or channels. */
export async function accountSeries(ctx: AppContext, userId: number, query: SeriesQuery & { campaign?: number; channel?: number }) {
  const range = seriesRange(query);
  const { campaign, channel } = query;
  if (campaign && channel) throw fail('invalid_field', 'Send campaign or channel, not both.');
  if (campaign) await own(ctx, 'campaign', userId, campaign);
  if (channel) await own(ctx, 'channel', userId, channel);
  return series(ctx, accountScope(userId, campaign, channel), range);
}

/**
 * A link's or QR code's clicks and unique clicks between two days (both optional), summed from its
 * buckets; null when neither is given. The caller checks ownership.
 */
export async function rangeTotals(ctx: AppContext, kind: TargetKind, id: number, query: { from?: string; to?: string }) {
  if (!query.from && !query.to) return null;
  const { from, to } = dayRange(query);
  let clicks = 0;
  let uniqueClicks = 0;
  for (const sum of (await repo.daySums(ctx.db, { target: kind, id }, from, to)).values()) {
    clicks += sum.clicks;
    uniqueClicks += sum.uniques;
  }
  return { clicks, uniqueClicks };
}
