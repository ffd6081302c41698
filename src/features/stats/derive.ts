import { createHmac } from 'node:crypto';
import type { ClickStatsTable, ClickUniquesTable, TargetKind } from '../../db/types.js';
import { memoize } from '../../lib/bounded-cache.js';
import { normalizeIp } from './geo.js';
import type { Visit } from './recorder.js';
import { countryOf, describeAgent, referrerHost, socialNetwork, UNKNOWN } from './visitor.js';

/** One call of ClickRecorder.record, kept raw until the flush. */
export interface PendingClick {
  kind: TargetKind;
  id: number;
  visit: Visit;
}

/** A counted (non-bot) visit with everything the statistics need; no address or user agent is kept. */
export interface DerivedClick {
  kind: TargetKind;
  id: number;
  country: string;
  referrer: string;
  browser: string;
  os: string;
  social: string | null;
  visitor: string;
}

/** Dimensions kept as label counts in click_stats; 'total' holds the counters. */
export const DIMENSIONS = ['country', 'referrer', 'browser', 'os', 'social'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const TOTAL = 'total';

/** One target's share of a batch: its click count, label counts and distinct visitor hashes. */
export interface TargetBatch {
  kind: TargetKind;
  id: number;
  clicks: number;
  labels: Record<Dimension, Map<string, number>>;
  visitors: Set<string>;
}

export const targetKey = (kind: TargetKind, id: number) => `${kind}:${id}`;

// Headers recur far more than they vary; a flush derives thousands of visits, so each is parsed once.
const referrerOf = memoize((referer) => {
  const host = referrerHost(referer);
  return { host, social: socialNetwork(host) };
}, 20_000);

/** Turns raw visits into counted clicks, dropping bots (redirected but never counted). One per recorder: it holds the hash memo. */
export function clickDeriver(secret: string): (batch: PendingClick[]) => DerivedClick[] {
  // Salted so a stored hash cannot be reversed by hashing every address; no raw IP is kept.
  const hashOf = memoize((visitor) => createHmac('sha256', secret).update(visitor).digest('hex').slice(0, 32), 10_000, 1_024);
  return (batch) => {
    const derived: DerivedClick[] = [];
    for (const { kind, id, visit } of batch) {
      const agent = describeAgent(visit.userAgent);
      if (agent.bot) continue;
      const ip = normalizeIp(visit.ip);
      const referrer = referrerOf(visit.referer);
      derived.push({
        kind,
        id,
        country: countryOf(ip)?.name ?? UNKNOWN,
        referrer: referrer.host,
        browser: agent.browser,
        os: agent.os,
        social: referrer.social,
        visitor: hashOf(`${ip}\n${visit.userAgent}`),
      });
    }
    return derived;
  };
}

/**
 * Pre-aggregates a batch in memory so each (target, dimension, label) is one upsert. Targets come out
 * sorted by kind and id, so concurrent writers (WORKERS, several nodes) lock rows in one order.
 */
export function aggregate(clicks: DerivedClick[]): TargetBatch[] {
  const targets = new Map<string, TargetBatch>();
  for (const click of clicks) {
    const key = targetKey(click.kind, click.id);
    let target = targets.get(key);
    if (!target) {
      const labels = { country: new Map(), referrer: new Map(), browser: new Map(), os: new Map(), social: new Map() };
      targets.set(key, (target = { kind: click.kind, id: click.id, clicks: 0, labels, visitors: new Set() }));
    }
    target.clicks += 1;
    target.visitors.add(click.visitor);
    const { labels } = target;
    bump(labels.country, click.country);
    bump(labels.referrer, click.referrer);
    bump(labels.browser, click.browser);
    bump(labels.os, click.os);
    if (click.social) bump(labels.social, click.social);
  }
  return [...targets.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.id - b.id);
}

function bump(counts: Map<string, number>, label: string): void {
  counts.set(label, (counts.get(label) ?? 0) + 1);
}

/** The target's click_stats increments in lock order: labels by dimension and label, then its counters. */
export function statRows(target: TargetBatch, freshVisitors: number): ClickStatsTable[] {
  const { kind: target_kind, id: target_id } = target;
  const rows: ClickStatsTable[] = [];
  for (const dimension of DIMENSIONS) {
    const counts = target.labels[dimension];
    for (const label of [...counts.keys()].sort()) rows.push({ target_kind, target_id, dimension, label, count: counts.get(label)! });
  }
  rows.push({ target_kind, target_id, dimension: TOTAL, label: 'clicks', count: target.clicks });
  if (freshVisitors > 0) rows.push({ target_kind, target_id, dimension: TOTAL, label: 'uniques', count: freshVisitors });
  return rows;
}

/** The target's visitor pairs, sorted (lock order again). */
export function uniqueRows(target: TargetBatch): ClickUniquesTable[] {
  return [...target.visitors].sort().map((visitor_hash) => ({ target_kind: target.kind, target_id: target.id, visitor_hash }));
}
