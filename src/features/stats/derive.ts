import { createHmac } from 'node:crypto';
import type { ClickStatsTable, ClickUniquesTable, NewClick, TargetKind } from '../../db/types.js';
import { formatTimestamp } from '../../lib/time.js';
import { memoize } from '../../lib/bounded-cache.js';
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

// Headers recur far more than they vary; a flush derives thousands of visits, so each is parsed once.
const languageOf = memoize(primaryLanguage, 2_000);
const referrerOf = memoize((referer) => {
  const host = referrerHost(referer);
  return { host, social: socialNetwork(host) };
}, 20_000);

/** Turns raw visits into click rows, dropping bots (redirected but never counted). One per recorder: it holds the hash memo. */
export function clickDeriver(secret: string): (batch: PendingClick[]) => DerivedClick[] {
  // Salted so a stored hash cannot be reversed by hashing every address; no raw IP is kept.
  const hashOf = memoize((visitor) => createHmac('sha256', secret).update(visitor).digest('hex').slice(0, 32), 50_000, 1_024);
  return (batch) => {
    const stamp = timestamps();
    const derived: DerivedClick[] = [];
    for (const { kind, id, visit } of batch) {
      const agent = describeAgent(visit.userAgent);
      if (agent.bot) continue;
      const ip = normalizeIp(visit.ip);
      const referrer = referrerOf(visit.referer);
      const row: NewClick = {
        target_kind: kind,
        target_id: id,
        created_at: stamp(visit.at),
        country: countryOf(ip)?.name ?? UNKNOWN,
        referrer: referrer.host,
        browser: agent.browser,
        os: agent.os,
        device: agent.device,
        language: languageOf(visit.acceptLanguage),
        visitor_hash: hashOf(`${ip}\n${visit.userAgent}`),
      };
      derived.push({ row, social: referrer.social });
    }
    return derived;
  };
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

interface TargetAggregate {
  totals: TargetTotals;
  labels: Record<Dimension, Map<string, number>>;
  visitors: Set<string>;
}

/** Pre-aggregates a batch in memory so each (target, dimension, label) is one upsert. */
export function aggregate(clicks: DerivedClick[]): Aggregates {
  const targets = new Map<string, TargetAggregate>();
  for (const { row, social } of clicks) {
    const key = targetKey(row.target_kind, row.target_id);
    let target = targets.get(key);
    if (!target) {
      const labels = { country: new Map(), referrer: new Map(), browser: new Map(), os: new Map(), social: new Map() };
      target = { totals: { kind: row.target_kind, id: row.target_id, clicks: 0 }, labels, visitors: new Set() };
      targets.set(key, target);
    }
    target.totals.clicks += 1;
    target.visitors.add(row.visitor_hash);
    const { labels } = target;
    bump(labels.country, row.country);
    bump(labels.referrer, row.referrer);
    bump(labels.browser, row.browser);
    bump(labels.os, row.os);
    if (social) bump(labels.social, social);
  }
  return flatten([...targets.values()]);
}

function bump(counts: Map<string, number>, label: string): void {
  counts.set(label, (counts.get(label) ?? 0) + 1);
}

// Sorted by target, dimension and label so concurrent writers (WORKERS, several nodes) lock rows in one order.
function flatten(targets: TargetAggregate[]): Aggregates {
  targets.sort((a, b) => a.totals.kind.localeCompare(b.totals.kind) || a.totals.id - b.totals.id);
  const out: Aggregates = { stats: [], uniques: [], totals: targets.map((t) => t.totals) };
  for (const { totals: { kind, id }, labels, visitors } of targets) {
    for (const dimension of DIMENSIONS) {
      for (const label of [...labels[dimension].keys()].sort()) {
        out.stats.push({ target_kind: kind, target_id: id, dimension, label, count: labels[dimension].get(label)! });
      }
    }
    for (const hash of [...visitors].sort()) out.uniques.push({ target_kind: kind, target_id: id, visitor_hash: hash });
  }
  return out;
}
