import type { ClickHoursTable } from '../db/types.js';
import { hourRows, type TargetBatch } from './derive.js';

/** A summary's open hour: the target's latest hour, counted in its click_summaries row until a later one comes. */
export interface OpenHour {
  hour: number;
  hour_clicks: number;
  hour_uniques: number;
}

/**
 * A target's batch by hour: its latest hour, which the summary upsert adds to the open hour (the database
 * moves a stored open hour it replaces to click_hours, src/db/migrations/0006), and the earlier ones (rare:
 * a batch straddling an hour), written to click_hours directly, in lock order.
 */
export function splitHours(target: TargetBatch, fresh: Map<number, number>) {
  const earlier = hourRows(target, fresh);
  const latest = earlier.pop()!;
  const open: OpenHour = { hour: latest.hour, hour_clicks: latest.clicks, hour_uniques: latest.uniques };
  return { open, latest, earlier };
}

/** The rows for click_hours once the upsert answered the summary's open hour: the latest too if the stored one was later. */
export const closedHours = (split: ReturnType<typeof splitHours>, openHour: number): ClickHoursTable[] =>
  openHour > split.latest.hour ? [...split.earlier, split.latest] : split.earlier;
