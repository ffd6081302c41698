import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';

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

/** Stub: statistics of one link or QR code from the running aggregates (filled in by the stats feature). */
export async function readStats(_ctx: AppContext, _kind: TargetKind, _id: number): Promise<Stats> {
  return { clicks: 0, uniqueClicks: 0, topCountries: 0, topReferrers: 0, topBrowsers: 0, topOs: 0, socialCount: {} };
}
