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

export const PRESETS: { label: string; days: number; interval: Interval }[] = [
  { label: 'Last 24 hours', days: 1, interval: 'hour' },
  { label: 'Last 7 days', days: 6, interval: 'day' },
  { label: 'Last 30 days', days: 29, interval: 'day' },
  { label: 'Last 90 days', days: 89, interval: 'week' },
  { label: 'Last 12 months', days: 364, interval: 'month' },
];

export const defaultRange = (): Range => ({ from: daysBack(29), to: day(new Date()), interval: 'day' });

/** A bucket's `date` (`YYYY-MM-DD` or `YYYY-MM-DD HH:00:00`, UTC) as unix seconds for the chart. */
export function bucketTime(date: string): number {
  return Date.parse(date.length > 10 ? `${date.replace(' ', 'T')}Z` : `${date}T00:00:00Z`) / 1000;
}
