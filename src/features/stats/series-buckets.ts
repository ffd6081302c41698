import { fail } from '../../lib/errors.js';

/** UTC calendar arithmetic of the click series: days and hours are counted since 1970-01-01. */
export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const DAY_MS = 86_400_000;
/** The longest range an hourly series spans, in days (31 × 24 buckets). */
export const MAX_HOURLY_DAYS = 31;
/** The most buckets a day, week or month series holds: ten years of days. */
export const MAX_BUCKETS = 3660;
/** How far `from` reaches back by default: `to` and the 30 days before it. */
const DEFAULT_SPAN_DAYS = 30;

export interface SeriesRange {
  interval: Interval;
  /** First and last day of the range, both included. */
  from: number;
  to: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` date (a real one, from 1970 on) as a day number; the catalogue's 400 otherwise. */
function parseDay(value: string, field: string): number {
  const m = DATE.exec(value.trim());
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || ms < 0 || formatDay(ms / DAY_MS) !== value.trim()) {
    throw fail('invalid_field', `${field} must be a date written YYYY-MM-DD (UTC), from 1970-01-01 on; got "${value}".`);
  }
  return ms / DAY_MS;
}

export const formatDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const formatHour = (hour: number) => new Date(hour * 3_600_000).toISOString().slice(0, 13).replace('T', ' ') + ':00:00';

/** Days from `from` (default 1970-01-01) to `to` (default today), both included, for totals over a range. */
export function dayRange(query: { from?: string; to?: string }, now = Date.now()): { from: number; to: number } {
  const to = query.to ? parseDay(query.to, 'to') : Math.floor(now / DAY_MS);
  const from = query.from ? parseDay(query.from, 'from') : 0;
  if (from > to) throw fail('series_range_invalid', formatDay(from), formatDay(to));
  return { from, to };
}

/** The range a query asks for, with its defaults (to: today, from: 30 days before to, interval: day), checked. */
export function seriesRange(query: { from?: string; to?: string; interval?: string }, now = Date.now()): SeriesRange {
  const interval = (query.interval?.trim().toLowerCase() || 'day') as Interval;
  if (!INTERVALS.includes(interval)) throw fail('invalid_field', `interval must be one of ${INTERVALS.join(', ')}; got "${query.interval}".`);
  const to = query.to ? parseDay(query.to, 'to') : Math.floor(now / DAY_MS);
  const from = query.from ? parseDay(query.from, 'from') : Math.max(0, to - DEFAULT_SPAN_DAYS);
  if (from > to) throw fail('series_range_invalid', formatDay(from), formatDay(to));
  const range = { interval, from, to };
  if (interval === 'hour' && to - from + 1 > MAX_HOURLY_DAYS)
    throw fail('series_range_too_large', `an hourly series spans at most ${MAX_HOURLY_DAYS} days`);
  if (interval !== 'hour' && bucketStarts(range).length > MAX_BUCKETS)
    throw fail('series_range_too_large', `a series holds at most ${MAX_BUCKETS} buckets`);
  return range;
}

/** The bucket a day falls in: the day itself, its ISO week's Monday or the first of its month. */
export function bucketOf(day: number, interval: Exclude<Interval, 'hour'>): number {
  if (interval === 'day') return day;
  if (interval === 'week') return day - ((day + 3) % 7); // 1970-01-01 was a Thursday
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

/** Every bucket of the range in order: hours for `hour`, else the first day of each day, week or month. */
export function bucketStarts({ interval, from, to }: SeriesRange): number[] {
  if (interval === 'hour') return Array.from({ length: (to - from + 1) * 24 }, (_, i) => from * 24 + i);
  const starts: number[] = [];
  for (let day = from; day <= to && starts.length <= MAX_BUCKETS;) {
    const start = bucketOf(day, interval);
    starts.push(start);
    day = interval === 'day' ? day + 1 : interval === 'week' ? start + 7 : nextMonth(start);
  }
  return starts;
}

function nextMonth(day: number): number {
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS;
}
