import type { Insertable } from 'kysely';
import type { ClickHoursTable, ClickStatsTable, ClickSummariesTable, ClickUniquesTable } from '../db/types.js';
import { bump, SUMMARIZED, type TargetBatch } from './derive.js';

// The rows a target's share of a batch adds to: its summary (counters, bounded labels as JSON, open hour,
// visit pack), its referrer counts, its visitors and its earlier hours. Both writers build the same rows.

/**
 * The target's increments of its click_summaries row: counters, bounded-dimension labels as JSON, its open
 * hour, and its visit pack of the batch (null when it has none).
 */
export function summaryRow(target: TargetBatch, fresh: FreshVisitors, logged: { pack: number; n: number } | null): Insertable<ClickSummariesTable> {
  // Concatenated from keys escaped once per batch: no object and no escaping per target (docs/performance.md#summary-labels).
  const { summaryKeys } = target.labels;
  let labels = '';
  for (const [code, count] of target.counts) {
    const key = summaryKeys[code];
    if (key !== null) labels += labels === '' ? key + count : `,${key}${count}`;
  }
  return {
    target_kind: target.kind,
    target_id: target.id,
    clicks: target.clicks,
    uniques: fresh.total,
    labels: `{${labels}}`,
    hour: target.hour,
    hour_clicks: target.hourClicks,
    hour_uniques: fresh.latest,
    visit_pack: logged?.pack ?? null,
    visit_count: logged?.n ?? 0,
  };
}

/** The target's referrer increments for click_stats, in lock order (by label). */
export function referrerRows(target: TargetBatch): ClickStatsTable[] {
  const { kind: target_kind, id: target_id } = target;
  const { byCode, rank } = target.labels;
  const rows: ClickStatsTable[] = [];
  for (const code of [...target.counts.keys()].sort((a, b) => rank[a]! - rank[b]!)) {
    const { dimension, label } = byCode[code]!;
    if (!SUMMARIZED.has(dimension)) rows.push({ target_kind, target_id, dimension, label, count: target.counts.get(code)! });
  }
  return rows;
}

/** The target's visitor pairs, sorted (lock order again). */
export function uniqueRows(target: TargetBatch): ClickUniquesTable[] {
  return [...target.visitors.keys()].sort().map((visitor_hash) => ({ target_kind: target.kind, target_id: target.id, visitor_hash }));
}

/** Visitors new to a target: in all, in its latest hour, and by hour for earlier hours (null when none). */
export interface FreshVisitors {
  total: number;
  latest: number;
  earlier: Map<number, number> | null;
}

/** Counts the target's visitors that `isNew` (which records them) finds new, by the hour of their first visit. */
export function freshVisitors(target: TargetBatch, isNew: (visitor: string) => boolean): FreshVisitors {
  const fresh: FreshVisitors = { total: 0, latest: 0, earlier: null };
  for (const [visitor, hour] of target.visitors) {
    if (!isNew(visitor)) continue;
    fresh.total += 1;
    if (hour === target.hour) fresh.latest += 1;
    else bump((fresh.earlier ??= new Map<number, number>()), hour);
  }
  return fresh;
}

/**
 * The target's click_hours increments for the hours before its latest, in lock order; the latest goes to the
 * summary's open hour (src/db/migrations/0006). Nearly always none.
 */
export function earlierHourRows(target: TargetBatch, fresh: FreshVisitors): ClickHoursTable[] {
  if (target.earlier === null) return [];
  const { kind: target_kind, id: target_id } = target;
  return [...target.earlier]
    .sort((a, b) => a[0] - b[0])
    .map(([hour, clicks]) => ({ target_kind, target_id, hour, clicks, uniques: fresh.earlier?.get(hour) ?? 0 }));
}
