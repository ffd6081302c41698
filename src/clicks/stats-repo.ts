import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { TargetKind, VariantKind } from '../db/types.js';

export interface Summary {
  clicks: number;
  uniques: number;
  /** `dimension:label` → count, for the dimensions other than referrer. */
  labels: Record<string, number>;
}

/** The target's counters and bounded-dimension labels; zeros when it has none. */
export async function readSummary(db: Db, kind: TargetKind, id: number): Promise<Summary> {
  const row = await db
    .selectFrom('click_summaries')
    .select(['clicks', 'uniques', 'labels'])
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .executeTakeFirst();
  if (!row) return { clicks: 0, uniques: 0, labels: {} };
  return { clicks: Number(row.clicks), uniques: Number(row.uniques), labels: parseLabels(row.labels) };
}

function parseLabels(text: string): Record<string, number> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** Most frequent referrers first (ties by host); a range of the primary key, sorted (a target's referrers are few). */
export async function topReferrers(db: Db, kind: TargetKind, id: number, limit: number) {
  const rows = await db
    .selectFrom('click_stats')
    .select(['label', 'count'])
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .where('dimension', '=', 'referrer')
    .orderBy('count', 'desc')
    .orderBy('label')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ label: row.label, count: Number(row.count) }));
}

/** A link's stored click count (every node's batches so far), for the redirect's visit cap; no row: none yet. */
export const linkClicksQuery = (db: Db, id: number) =>
  db.selectFrom('click_summaries').select('clicks').where('target_kind', '=', sql.lit('link')).where('target_id', '=', id);

/**
 * The totals of a link's split variants, by kind, summed from their hours and days: a variant has no summary
 * row (batch-rows.ts#isVariant), and days are never dropped. A variant never visited has no row.
 */
export async function readVariantTotals(db: Db, id: number, kinds: VariantKind[]): Promise<Map<string, { clicks: number; uniques: number }>> {
  if (kinds.length === 0) return new Map(); // `in ()` is no SQL
  const { rows } = await sql<{ target_kind: string; clicks: number | string; uniques: number | string }>`
    select target_kind, sum(clicks) as clicks, sum(uniques) as uniques from (
      select target_kind, clicks, uniques from click_hours where target_kind in (${sql.join(kinds)}) and target_id = ${id}
      union all select target_kind, clicks, uniques from click_days where target_kind in (${sql.join(kinds)}) and target_id = ${id}
    ) b group by target_kind`.execute(db);
  return new Map(rows.map((row) => [row.target_kind, { clicks: Number(row.clicks), uniques: Number(row.uniques) }]));
}
