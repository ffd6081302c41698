import type { Db } from '../../db/connect.js';
import type { TargetKind, VariantKind } from '../../db/types.js';
import { labelKey, type Dimension } from '../../clicks/derive.js';
import * as repo from '../../clicks/stats-repo.js';
import { SOCIAL_NETWORKS } from '../../lib/referrer.js';

/** Label → count, or the spec's `0` when there is nothing to show. */
export type LabelCounts = Record<string, number> | 0;

export interface Stats {
  clicks: number;
  uniqueClicks: number;
  topCountries: LabelCounts;
  topReferrers: LabelCounts;
  topBrowsers: LabelCounts;
  topOs: LabelCounts;
  /** Extension: device kinds (`desktop`, `mobile`, `tablet`, `other`) and visitors' first languages (`fr`, `Unknown`). */
  topDevices: LabelCounts;
  topLanguages: LabelCounts;
  socialCount: Record<string, number>;
}

/** Networks socialCount always lists, with 0 when no visit came from them. */
// `google` stays listed for clients written against the spec's original answers; it is a search engine now, so it stays 0.
export const DEFAULT_SOCIAL_KEYS = ['facebook', 'twitter', 'google'];

const TOP = 10;
// Every network socialNetwork() knows fits; the cap only guards the response size.
const SOCIAL_MAX = 50;

// Clicks counted before search engines were told apart keep a `social:google` label: it is not a network.
const isSocial = (row: Row) => Object.hasOwn(SOCIAL_NETWORKS, row.label);

/**
 * Statistics of one link or QR code, read from the target's summary row and its referrer rows only
 * (never a click log), so it costs the same for ten clicks or ten million. The caller checks ownership
 * first. Label maps list the top 10 by count (ties by label); socialCount lists every network seen plus
 * `socialKeys` with 0. Unknown countries count as "Unknown", visits without a referrer as "direct";
 * bots are not counted.
 */
export async function readStats({ db }: { db: Db }, kind: TargetKind, id: number, socialKeys: string[] = DEFAULT_SOCIAL_KEYS): Promise<Stats> {
  const summary = await repo.readSummary(db, kind, id);
  const referrers = await repo.topReferrers(db, kind, id, TOP);
  const top = (dimension: Dimension, limit = TOP) => topOf(summary.labels, dimension, limit);
  return {
    clicks: summary.clicks,
    uniqueClicks: summary.uniques,
    topCountries: labelCounts(top('country')),
    topReferrers: labelCounts(referrers),
    topBrowsers: labelCounts(top('browser')),
    topOs: labelCounts(top('os')),
    topDevices: labelCounts(top('device')),
    topLanguages: labelCounts(top('language')),
    socialCount: { ...Object.fromEntries(socialKeys.map((key) => [key, 0])), ...counts(top('social', SOCIAL_MAX).filter(isSocial)) },
  };
}

type Row = { label: string; count: number };

/** The dimension's labels of a summary, highest count first, ties by label (as the referrer query orders). */
function topOf(labels: Record<string, number>, dimension: Dimension, limit: number): Row[] {
  const prefix = labelKey(dimension, '');
  const rows: Row[] = [];
  for (const [key, count] of Object.entries(labels)) {
    if (key.startsWith(prefix)) rows.push({ label: key.slice(prefix.length), count: Number(count) });
  }
  return rows.sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)).slice(0, limit);
}

// fromEntries defines own properties, so even a label like "__proto__" stays a plain key.
const counts = (rows: Row[]): Record<string, number> => Object.fromEntries(rows.map((r) => [r.label, r.count]));

function labelCounts(rows: Row[]): LabelCounts {
  return rows.length === 0 ? 0 : counts(rows);
}

/** Clicks and unique clicks of a link's split variants 0..count-1, each counted as a target of its own (`variant:<n>`). */
export async function readVariantCounts({ db }: { db: Db }, id: number, count: number): Promise<Array<{ clicks: number; uniqueClicks: number }>> {
  const kinds = Array.from({ length: count }, (_, n): VariantKind => `variant:${n}`);
  const sums = await repo.readVariantTotals(db, id, kinds);
  return kinds.map((kind) => ({ clicks: sums.get(kind)?.clicks ?? 0, uniqueClicks: sums.get(kind)?.uniques ?? 0 }));
}
