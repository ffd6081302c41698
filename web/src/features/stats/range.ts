import type { SeriesPoint } from '../../lib/types.js';

/** Ranges and intervals of the clicks-over-time routes: days are UTC `YYYY-MM-DD`, both ends included. */
export type Interval = 'hour' | 'day' | 'week' | 'month';

export interface Range {
  from: string;
  to: string;
  interval: Interval;
}

export const day = (date: Date) => date.toISOString().slice(0, 10);

export function daysBack(days: number, now = new Date()): string {
  return day(new Date(now.getTime() - days * 86_400_000));
}

/** `hours`: the chart keeps that many hourly buckets ending at the current hour, of the days the server counts. */
export const PRESETS: { key: string; label: string; days: number; interval: Interval; hours?: number }[] = [
  { key: '24h', label: 'Last 24 hours', days: 1, interval: 'hour', hours: 24 },
  { key: '7d', label: 'Last 7 days', days: 6, interval: 'day' },
  { key: '30d', label: 'Last 30 days', days: 29, interval: 'day' },
  { key: '90d', label: 'Last 90 days', days: 89, interval: 'week' },
  { key: '12m', label: 'Last 12 months', days: 364, interval: 'month' },
];

/** The range asked of the server and the preset it came from (an index of PRESETS), null for own dates. */
export interface Period {
  range: Range;
  preset: number | null;
}

export function presetPeriod(preset: number, now = new Date()): Period {
  const { days, interval } = PRESETS[preset]!;
  return { range: { from: daysBack(days, now), to: day(now), interval }, preset };
}

const DEFAULT_PRESET = 2;

/** Last 30 days, daily. */
export const defaultPeriod = (): Period => presetPeriod(DEFAULT_PRESET);

export const INTERVALS: Interval[] = ['hour', 'day', 'week', 'month'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The period an address asks for: `range=7d` (a preset, recomputed from today so a shared link stays "the last
 * 7 days"), or own `from`, `to` and `interval`; anything missing or malformed falls back to the default.
 */
export function periodFromParams(params: URLSearchParams, now = new Date()): Period {
  const preset = PRESETS.findIndex((p) => p.key === params.get('range'));
  if (preset >= 0) return presetPeriod(preset, now);
  const [from, to, interval] = [params.get('from') ?? '', params.get('to') ?? '', params.get('interval') as Interval];
  if (!DATE.test(from) || !DATE.test(to) || from > to || !INTERVALS.includes(interval)) return presetPeriod(DEFAULT_PRESET, now);
  return { range: { from, to, interval }, preset: null };
}

/** The address's params of a period: none for the default, so a plain page keeps a plain address. */
export function periodParams(period: Period): Record<string, string> {
  if (period.preset === DEFAULT_PRESET) return {};
  if (period.preset !== null) return { range: PRESETS[period.preset]!.key };
  return { ...period.range };
}

const HOUR_S = 3600;
const hourDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** The `hours` hourly buckets ending at the current (UTC) hour, taken from the server's whole days; missing ones count 0. */
export function lastHours(points: SeriesPoint[], hours: number, now = new Date()): SeriesPoint[] {
  const current = Math.floor(now.getTime() / 1000 / HOUR_S) * HOUR_S;
  const byTime = new Map(points.map((p) => [bucketTime(p.date), p]));
  return Array.from({ length: hours }, (_, i) => {
    const time = current - (hours - 1 - i) * HOUR_S;
    return byTime.get(time) ?? { date: hourDate(time), clicks: 0, uniqueClicks: 0 };
  });
}

/** A bucket's `date` (`YYYY-MM-DD` or `YYYY-MM-DD HH:00:00`, UTC) as unix seconds for the chart. */
export function bucketTime(date: string): number {
  return Date.parse(date.length > 10 ? `${date.replace(' ', 'T')}Z` : `${date}T00:00:00Z`) / 1000;
}
