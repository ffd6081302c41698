import { useSearchParams } from 'wouter';
import { periodFromParams, periodParams, type Period } from './range.js';

/** How often the analytics pages refetch their figures while the tab is visible. */
export const REFRESH_MS = 30_000;

/**
 * Query options of figures that keep up by themselves: refetched every 30 s, not while the tab is hidden
 * (TanStack Query pauses the interval then), and the shown data stays until the new arrives, so nothing flickers.
 */
export const LIVE = { refetchInterval: REFRESH_MS, refetchIntervalInBackground: false } as const;

/**
 * The chosen period, kept in the address (`?range=7d`, or `?from=…&to=…&interval=day`) so a reload, a shared link
 * or Back shows the same one; each choice is a history entry of its own. Other params of the page are kept.
 */
export function usePeriod(): [Period, (period: Period) => void] {
  const [params, setParams] = useSearchParams();
  const set = (period: Period) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const name of ['range', 'from', 'to', 'interval']) next.delete(name);
      for (const [name, value] of Object.entries(periodParams(period))) next.set(name, value);
      return next;
    });
  return [periodFromParams(params), set];
}
