import type { Insertable } from 'kysely';
import type { ClickHoursTable, ClickStatsTable, ClickSummariesTable, ClickUniquesTable } from '../db/types.js';
import { bump, servedVariant, SUMMARIZED, type TargetBatch } from './derive.js';

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

/**
 * Counts the target's visitors that `isNew` (which records them) finds new, by the hour of their first visit. For
 * a link with split visits, `newcomers` gets each new visitor served a variant as (variant, hour first served) pairs.
 */
export function freshVisitors(target: TargetBatch, isNew: (visitor: string) => boolean, newcomers?: number[]): FreshVisitors {
  const fresh: FreshVisitors = { total: 0, latest: 0, earlier: null };
  const variantOf = target.variantOf;
  for (const [visitor, hour] of target.visitors) {
    if (!isNew(visitor)) continue;
    countFresh(fresh, hour, target.hour);
    const served = variantOf?.get(visitor);
    if (served !== undefined && newcomers) {
      const { n, hour: at } = servedVariant(served);
      newcomers.push(n, at);
    }
  }
  return fresh;
}

/** A split variant's new visitors: its link's new ones first served it (`newcomers` from freshVisitors of the link). */
export function variantFresh(variant: TargetBatch, newcomers: readonly number[]): FreshVisitors {
  const fresh: FreshVisitors = { total: 0, latest: 0, earlier: null };
  const n = variantNumber(variant);
  for (let i = 0; i < newcomers.length; i += 2) {
    if (newcomers[i] !== n) continue;
    countFresh(fresh, newcomers[i + 1]!, variant.hour);
  }
  return fresh;
}

/** One new visitor first seen in `hour`: in the target's latest hour, or in an earlier one. */
function countFresh(fresh: FreshVisitors, hour: number, latest: number): void {
  fresh.total += 1;
  if (hour === latest) fresh.latest += 1;
  else bump((fresh.earlier ??= new Map<number, number>()), hour);
}

const variantNumber = (variant: TargetBatch) => Number(variant.kind.slice('variant:'.length));

/**
 * A split variant (`variant:<n>`) has no summary row: no labels, no visit log, no share of the account's series,
 * and its totals are summed from its hours (stats-repo.ts#readVariantTotals). A batch adds its latest hour
 * straight to click_hours, a trigger-free upsert: a third of the summary's cost, and a routed link's three
 * variants were three summary upserts a batch (docs/performance.md#variant-hours).
 */
export const isVariant = (target: TargetBatch) => target.kind.startsWith('variant:');

/** A split variant's click_hours increment for its latest hour in the batch. */
export function variantHourRow(target: TargetBatch, fresh: FreshVisitors): ClickHoursTable {
  return { target_kind: target.kind, target_id: target.id, hour: target.hour, clicks: target.hourClicks, uniques: fresh.latest };
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
