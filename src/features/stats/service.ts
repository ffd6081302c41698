import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import type { Dimension } from './derive.js';
import * as repo from './repo.js';

/** Label → count, or the spec's `0` when there is nothing to show. */
export type LabelCounts = Record<string, number> | 0;

export interface Stats {
  clicks: number;
  uniqueClicks: number;
  topCountries: LabelCounts;
  topReferrers: LabelCounts;
  topBrowsers: LabelCounts;
  topOs: LabelCounts;
  socialCount: Record<string, number>;
}

/** Networks socialCount always lists, with 0 when no visit came from them. */
export const DEFAULT_SOCIAL_KEYS = ['facebook', 'twitter', 'google'];

const TOP = 10;
// Every network socialNetwork() knows fits; the cap only guards the response size.
const SOCIAL_MAX = 50;

/**
 * Statistics of one link or QR code, read from the targets' counters and the click_stats aggregates
 * only (never the click log), so it costs the same for ten clicks or ten million. The caller checks
 * ownership first. Label maps list the top 10 by count (ties by label); socialCount lists every network
 * seen plus `socialKeys` with 0. Unknown countries count as "Unknown", visits without a referrer as
 * "direct"; bots are not counted.
 */
export async function readStats(
  ctx: AppContext,
  kind: TargetKind,
  id: number,
  socialKeys: string[] = DEFAULT_SOCIAL_KEYS,
): Promise<Stats> {
  const counters = await repo.readCounters(ctx.db, kind, id);
  const top = (dimension: Dimension, limit = TOP) => repo.topLabels(ctx.db, kind, id, dimension, limit);
  const [countries, referrers, browsers, os, social] = [
    await top('country'), await top('referrer'), await top('browser'), await top('os'), await top('social', SOCIAL_MAX),
  ];
  return {
    clicks: counters.clicks,
    uniqueClicks: counters.uniques,
    topCountries: labelCounts(countries),
    topReferrers: labelCounts(referrers),
    topBrowsers: labelCounts(browsers),
    topOs: labelCounts(os),
    socialCount: { ...Object.fromEntries(socialKeys.map((key) => [key, 0])), ...counts(social) },
  };
}

type Row = { label: string; count: number };

// fromEntries defines own properties, so even a label like "__proto__" stays a plain key.
const counts = (rows: Row[]): Record<string, number> => Object.fromEntries(rows.map((r) => [r.label, r.count]));

function labelCounts(rows: Row[]): LabelCounts {
  return rows.length === 0 ? 0 : counts(rows);
}
