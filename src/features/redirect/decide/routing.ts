import { agentFacts, ipFacts, Seen, passes, type AgentFacts, type Check, type IpFacts, type RoutedVisit } from './checks.js';
import { target, type Target, type Targeting, type Visitor } from './targeting.js';

export type { RoutedVisit } from './checks.js';

/**
 * A link's rules, split and cap (issue 27), compiled once per cache fill (resolve/compile-routing.ts): a visit runs its
 * checks over facts looked up only when a check asks for them. What a visit reads of its own link is this object; the
 * rest is shared by every link whose routing has the same shape (docs/performance.md#flat-plans).
 */
export interface RoutingPlan extends HeldDestinations {
  shape: RouteShape;
  /** Every destination a rule or variant picks, as served (an index of `RouteShape`'s picks and splits). */
  destinations: string[];
  /** Counted clicks: the stored count when compiled plus this node's since; null without maxvisits. */
  cap: { max: number; used: number } | null;
  /** Where an expired or exhausted link redirects; null shows the 410 page. */
  expiredUrl: string | null;
}

/** A plan's part that holds no URL: shared by every link with the same conditions, weights and labels. */
export interface RouteShape {
  /**
   * Every rule's checks in the link's order, one list (rule r's end at `ends[r]`, exclusive): a visit walks one array,
   * not an array a rule. The first rule whose checks all pass picks.
   */
  checks: Check[];
  ends: number[];
  /** What each rule picks, in the same order: a destination's index, or a split's (`-1 - pick` into `splits`). */
  picks: number[];
  splits: Split[];
  /** The default destination's split in `splits`; -1 without one. */
  split: number;
  /** By destination: the rule the click records (`rule:1`, `split:0`, `rule:2/split:3`; strings shared by all links). */
  labels: string[];
}

/** Cumulative weights (`bounds[i]` = sum of weights 0..i) of variants that are destinations `first`, `first + 1`, … */
export interface Split {
  bounds: number[];
  first: number;
}

/**
 * The first twelve destinations again, as fields of the plan ("" past the last): a visit reads its destination from
 * the plan it has already read, where the array was two more reads that miss the CPU's caches, its object and its
 * elements (44% of decide's own time on routed links in a profile of the server, docs/performance.md#held-destinations).
 */
export interface HeldDestinations {
  d0: string;
  d1: string;
  d2: string;
  d3: string;
  d4: string;
  d5: string;
  d6: string;
  d7: string;
  d8: string;
  d9: string;
  d10: string;
  d11: string;
}

/** A plan of these parts, its held destinations written out in one literal so they are the plan's own fields. */
export function routingPlan(shape: RouteShape, destinations: string[], cap: RoutingPlan['cap'], expiredUrl: string | null): RoutingPlan {
  const [d0 = '', d1 = '', d2 = '', d3 = '', d4 = '', d5 = '', d6 = '', d7 = '', d8 = '', d9 = '', d10 = '', d11 = ''] = destinations;
  return { shape, destinations, cap, expiredUrl, d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11 };
}

/** Destination `k` of the plan (route()'s number). */
export function destinationOf(plan: RoutingPlan, k: number): string {
  switch (k) {
    case 0:
      return plan.d0;
    case 1:
      return plan.d1;
    case 2:
      return plan.d2;
    case 3:
      return plan.d3;
    case 4:
      return plan.d4;
    case 5:
      return plan.d5;
    case 6:
      return plan.d6;
    case 7:
      return plan.d7;
    case 8:
      return plan.d8;
    case 9:
      return plan.d9;
    case 10:
      return plan.d10;
    case 11:
      return plan.d11;
    default:
      return plan.destinations[k]!;
  }
}

const seen = new Seen();

/** Whether the cap is reached: the link then behaves as expired. */
export function exhausted(plan: RoutingPlan): boolean {
  return plan.cap !== null && plan.cap.used >= plan.cap.max;
}

/**
 * Rules first, then the spec's targets, then the default split: a number is an index of `plan.destinations`, a Target
 * the targets' pick, undefined the link's own destination. `agent`: the visit's AgentFacts when the caller has them
 * (decide.ts looked them up for the crawler check).
 */
export function route(plan: RoutingPlan, targeting: Targeting | null, visit: RoutedVisit, agent?: AgentFacts): number | Target | undefined {
  const facts = seen;
  facts.reset(visit, agent);
  const shape = plan.shape;
  const r = firstHolding(shape, facts);
  if (r >= 0) {
    const picked = shape.picks[r]!;
    return picked >= 0 ? picked : pick(shape.splits[-1 - picked]!, hashOf(facts.agentFacts(), facts.ipFacts()));
  }
  const targeted = targeting ? target(targeting, visit) : undefined;
  if (targeted) return targeted;
  return shape.split >= 0 ? pick(shape.splits[shape.split]!, hashOf(facts.agentFacts(), facts.ipFacts())) : undefined;
}

/** The first rule whose checks all pass, or -1. */
function firstHolding(shape: RouteShape, facts: Seen): number {
  const { checks, ends } = shape;
  let at = 0;
  for (let r = 0; r < ends.length; r++) {
    const end = ends[r]!;
    while (at < end && passes(checks[at]!, facts)) at++;
    if (at === end) return r;
    at = end;
  }
  return -1;
}

/** The visitor's variant (its destination's index): a stable hash of IP and user agent, so a visitor keeps theirs on every node and visit. */
export function variant(split: Split, visitor: Pick<Visitor, 'ip' | 'userAgent'>): number {
  return pick(split, visitorHash(visitor.ip, visitor.userAgent));
}

function pick(split: Split, hash: number): number {
  const bounds = split.bounds;
  const point = hash % bounds[bounds.length - 1]!;
  let i = 0;
  while (point >= bounds[i]!) i++;
  return split.first + i;
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
