import { createHmac } from 'node:crypto';
import type { ClickStatsTable, ClickUniquesTable, NewClick, TargetKind } from '../../db/types.js';
import { formatTimestamp } from '../../lib/time.js';
import { normalizeIp } from './geo.js';
import type { Visit } from './recorder.js';
import { countryOf, describeAgent, primaryLanguage, referrerHost, socialNetwork, UNKNOWN } from './visitor.js';

/** One call of ClickRecorder.record, kept raw until the flush. */
export interface PendingClick {
  kind: TargetKind;
  id: number;
  visit: Visit;
}

/** A counted (non-bot) visit with everything the statistics need. */
export interface DerivedClick {
  row: NewClick;
  social: string | null;
}

/** Dimensions kept as running aggregates in click_stats. */
export const DIMENSIONS = ['country', 'referrer', 'browser', 'os', 'social'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface TargetTotals {
  kind: TargetKind;
  id: number;
  clicks: number;
}

export interface Aggregates {
  stats: ClickStatsTable[];
  /** Distinct within the batch; whether they are new overall is the database's answer. */
  uniques: ClickUniquesTable[];
  totals: TargetTotals[];
}

export const targetKey = (kind: TargetKind, id: number) => `${kind}:${id}`;

/** Parses the raw visits of a batch, dropping bots: they are redirected but never counted. */
export function deriveClicks(batch: PendingClick[], secret: string): DerivedClick[] {
  const stamp = timestamps();
  const derived: DerivedClick[] = [];
  for (const { kind, id, visit } of batch) {
    const agent = describeAgent(visit.userAgent);
    if (agent.bot) continue;
    const ip = normalizeIp(visit.ip);
    const referrer = referrerHost(visit.referer);
    derived.push({
      row: {
        target_kind: kind,
        target_id: id,
        created_at: stamp(visit.at),
        country: countryOf(ip)?.name ?? UNKNOWN,
        referrer,
        browser: agent.browser,
        os: agent.os,
        device: agent.device,
        language: primaryLanguage(visit.acceptLanguage),
        visitor_hash: visitorHash(secret, ip, visit.userAgent),
      },
      social: socialNetwork(referrer),
    });
  }
  return derived;
}

/** Salted so the stored hash cannot be reversed to an IP by trying all addresses; no raw IP is kept. */
export function visitorHash(secret: string, ip: string, userAgent: string): string {
  return createHmac('sha256', secret).update(`${ip}\n${userAgent}`).digest('hex').slice(0, 32);
}

/** Visits in the same second share one formatted timestamp (formatting dominates otherwise). */
function timestamps(): (at: number) => string {
  let second = -1;
  let text = '';
  return (at) => {
    const s = Math.floor(at / 1000);
    if (s !== second) {
      second = s;
      text = formatTimestamp(new Date(s * 1000));
    }
    return text;
  };
}

/** Pre-aggregates a batch in memory so each (target, dimension, label) is one upsert. */
export function aggregate(clicks: DerivedClick[]): Aggregates {
  const stats = new Map<string, ClickStatsTable>();
  const uniques = new Map<string, ClickUniquesTable>();
  const totals = new Map<string, TargetTotals>();
  const bump = (row: NewClick, dimension: Dimension, label: string) => {
    const key = `${row.target_kind}:${row.target_id}:${dimension}:${label}`;
    const stat = stats.get(key);
    if (stat) stat.count += 1;
    else stats.set(key, { target_kind: row.target_kind, target_id: row.target_id, dimension, label, count: 1 });
  };
  for (const { row, social } of clicks) {
    const target = targetKey(row.target_kind, row.target_id);
    const total = totals.get(target);
    if (total) total.clicks += 1;
    else totals.set(target, { kind: row.target_kind, id: row.target_id, clicks: 1 });
    uniques.set(`${target}:${row.visitor_hash}`, { target_kind: row.target_kind, target_id: row.target_id, visitor_hash: row.visitor_hash });
    bump(row, 'country', row.country);
    bump(row, 'referrer', row.referrer);
    bump(row, 'browser', row.browser);
    bump(row, 'os', row.os);
    if (social) bump(row, 'social', social);
  }
  return { stats: [...stats.values()], uniques: [...uniques.values()], totals: [...totals.values()] };
}
