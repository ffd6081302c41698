import { createHmac } from 'node:crypto';
import type { ClickStatsTable, ClickUniquesTable, TargetKind } from '../../db/types.js';
import { memoize } from '../../lib/bounded-cache.js';
import { normalizeIp } from './geo.js';
import { FIELDS, KINDS, type VisitBatch } from './visit-columns.js';
import { countryOf, describeAgent, referrerHost, socialNetwork, UNKNOWN, type Agent } from './visitor.js';

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

// Referers recur far more than they vary across batches; each is parsed once.
const referrerOf = memoize((referer) => {
  const host = referrerHost(referer);
  return { host, social: socialNetwork(host) };
}, 20_000);

/**
 * Turns a batch of raw visits into per-target aggregates, dropping bots (redirected but never counted),
 * so each (target, dimension, label) is one upsert. Each distinct header of the batch is parsed once;
 * no object is made per visit. Targets come out sorted by kind and id, so concurrent writers (WORKERS,
 * several nodes) lock rows in one order. One per writer: it holds the visitor hash memo.
 */
export function clickAggregator(secret: string): (batch: VisitBatch) => TargetBatch[] {
  // Salted so a stored hash cannot be reversed by hashing every address; no raw IP is kept.
  const hashOf = memoize((visitor) => createHmac('sha256', secret).update(visitor).digest('hex').slice(0, 32), 10_000, 1_024);
  return ({ kinds, ids, fields, strings }) => {
    const agents: Agent[] = [];
    const countries: string[] = [];
    const referrers: Array<ReturnType<typeof referrerOf>> = [];
    const visitors = new Map<number, string>();
    const targets = new Map<number, TargetBatch>();
    for (let i = 0; i < kinds.length; i++) {
      const ip = fields[i * FIELDS]!;
      const ua = fields[i * FIELDS + 1]!;
      const referer = fields[i * FIELDS + 2]!;
      const agent = (agents[ua] ??= describeAgent(strings[ua]!));
      if (agent.bot) continue;
      const country = (countries[ip] ??= countryOf(normalizeIp(strings[ip]!))?.name ?? UNKNOWN);
      const referrer = (referrers[referer] ??= referrerOf(strings[referer]!));
      const pair = ip * strings.length + ua;
      let visitor = visitors.get(pair);
      if (visitor === undefined) visitors.set(pair, (visitor = hashOf(`${normalizeIp(strings[ip]!)}\n${strings[ua]}`)));
      const target = targetOf(targets, kinds[i]!, ids[i]!);
      target.clicks += 1;
      target.visitors.add(visitor);
      const { labels } = target;
      bump(labels.country, country);
      bump(labels.referrer, referrer.host);
      bump(labels.browser, agent.browser);
      bump(labels.os, agent.os);
      if (referrer.social) bump(labels.social, referrer.social);
    }
    return [...targets.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.id - b.id);
  };
}

/** `kind` as VisitBatch stores it: an index into KINDS. */
function targetOf(targets: Map<number, TargetBatch>, kind: number, id: number): TargetBatch {
  const key = id * KINDS.length + kind;
  let target = targets.get(key);
  if (!target) {
    const labels = { country: new Map(), referrer: new Map(), browser: new Map(), os: new Map(), social: new Map() };
    targets.set(key, (target = { kind: KINDS[kind]!, id, clicks: 0, labels, visitors: new Set() }));
  }
  return target;
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
