import type { ClickHoursTable } from '../db/types.js';
import { hourRows, type TargetBatch } from './derive.js';

/** A summary's open hour: the target's latest hour, counted in its click_summaries row until a later one comes. */
export interface OpenHour {
  hour: number;
  hour_clicks: number;
  hour_uniques: number;
}

/**
 * Splits a target's batch against the open hour stored in its summary: the batch's latest hour becomes
 * (or adds to) the open hour unless the stored one is later; every other hour of the batch, and a stored
 * open hour the batch leaves behind, goes to click_hours, one row per hour, in lock order. The summary's
 * upsert (OPEN_HOUR_SET in store.ts) applies the same rule, so both agree on which counts stay open.
 */
export function settleHours(target: TargetBatch, fresh: Map<number, number>, stored: OpenHour | undefined) {
  const closed = hourRows(target, fresh);
  const latest = closed[closed.length - 1]!;
  if (stored && stored.hour > latest.hour) return { open: { hour: latest.hour, hour_clicks: 0, hour_uniques: 0 }, closed };
  closed.pop();
  const open: OpenHour = { hour: latest.hour, hour_clicks: latest.clicks, hour_uniques: latest.uniques };
  if (stored && stored.hour < latest.hour && Number(stored.hour_clicks) > 0) {
    const same = closed.find((row) => row.hour === stored.hour);
    if (same) {
      same.clicks += Number(stored.hour_clicks);
      same.uniques += Number(stored.hour_uniques);
    } else {
      const row: ClickHoursTable = { target_kind: target.kind, target_id: target.id, hour: stored.hour, clicks: Number(stored.hour_clicks), uniques: Number(stored.hour_uniques) };
      closed.push(row);
      closed.sort((a, b) => a.hour - b.hour);
    }
  }
  return { open, closed };
}
