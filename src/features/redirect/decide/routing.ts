import { agentFacts, ipFacts, Seen, passes, type AgentFacts, type Check, type IpFacts, type RoutedVisit } from './checks.js';
import { target, type Target, type Targeting, type Visitor } from './targeting.js';

export type { RoutedVisit } from './checks.js';

/**
 * A link's rules, split and cap (issue 27), compiled once per cache fill (resolve/compile-routing.ts):
 * a visit runs its checks over facts looked up only when a check asks for them.
 */
export interface RoutingPlan {
  /**
   * Each rule's checks in the link's order; the first rule whose checks all pass picks. Shared by every link whose
   * rules have the same conditions (compile-routing.ts), so a visit reads one copy.
   */
  checks: Check[][];
  /** What each rule picks, in the same order: its target, or null when it splits (then `splits[r]`). Flat: one read. */
  targets: Array<Target | null>;
  splits: Array<Split | null>;
  /** The default destination's variants; null without a split. */
  split: Split | null;
  /** Counted clicks: the stored count when compiled plus this node's since; null without maxvisits. */
  cap: { max: number; used: number } | null;
  /** Where an expired or exhausted link redirects; null shows the 410 page. */
  expiredUrl: string | null;
}

/** Cumulative weights (`bounds[i]` = sum of weights 0..i; shared by splits of the same weights) and one target per variant. */
export interface Split {
  bounds: number[];
  targets: Target[];
}

const seen = new Seen();

/** Whether the cap is reached: the link then behaves as expired. */
export function exhausted(plan: RoutingPlan): boolean {
  return plan.cap !== null && plan.cap.used >= plan.cap.max;
}

/** Rules first, then the spec's targets, then the default split; undefined: the link's own destination. */
export function route(plan: RoutingPlan, targeting: Targeting | null, visit: RoutedVisit): Target | undefined {
  const facts = seen;
  facts.reset(visit);
  const checks = plan.checks;
  for (let r = 0; r < checks.length; r++) {
    if (!holds(checks[r]!, facts)) continue;
    return plan.targets[r] ?? pick(plan.splits[r]!, hashOf(facts.agentFacts(), facts.ipFacts()));
  }
  const targeted = targeting ? target(targeting, visit) : undefined;
  if (targeted) return targeted;
  return plan.split ? pick(plan.split, hashOf(facts.agentFacts(), facts.ipFacts())) : undefined;
}

function holds(checks: Check[], facts: Seen): boolean {
  for (let i = 0; i < checks.length; i++) if (!passes(checks[i]!, facts)) return false;
  return true;
}

/** The visitor's variant: a stable hash of IP and user agent, so a visitor keeps theirs on every node and visit. */
export function variant(split: Split, visitor: Pick<Visitor, 'ip' | 'userAgent'>): Target {
  return pick(split, visitorHash(visitor.ip, visitor.userAgent));
}

function pick(split: Split, hash: number): Target {
  const total = split.bounds[split.bounds.length - 1]!;
  const point = hash % total;
  let i = 0;
  while (point >= split.bounds[i]!) i++;
  return split.targets[i]!;
}

/**
 * FNV-1a (32 bits) of the user agent, then of the address (IPv4-mapped written as IPv4), then mixed:
 * cheap, stable across processes and releases. A browser sends one user agent on every visit, so its
 * part is remembered.
 */
export function visitorHash(ip: string, userAgent: string): number {
  return hashOf(agentFacts(userAgent), ipFacts(ip));
}

function hashOf(agent: AgentFacts, ip: IpFacts): number {
  let h = agent.hash;
  const address = ip.written;
  for (let i = 0; i < address.length; i++) h = Math.imul(h ^ address.charCodeAt(i), 0x01000193);
  // A final avalanche: FNV's low bits alone follow the last characters too closely.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
