import { countryOf, normalizeIp, type Country } from '../../../infra/geo.js';
import { memoize } from '../../../lib/bounded-cache.js';
import { visitorAddress, type Address } from '../../../lib/ip-match.js';
import { describeAgent, type Agent } from '../../../lib/visitor.js';
import { languagesOf, target, type Target, type Targeting, type Visitor } from './targeting.js';

/**
 * A link's rules, split and cap (issue 27), compiled once per cache fill (resolve/compile-routing.ts):
 * a visit runs closures over facts it computes only when a condition asks for them.
 */
export interface RoutingPlan {
  /** In the link's order; the first whose tests all hold picks. */
  rules: CompiledRule[];
  /** The default destination's variants; null without a split. */
  split: Split | null;
  /** Counted clicks: the stored count when compiled plus this node's since; null without maxvisits. */
  cap: { max: number; used: number } | null;
  /** Where an expired or exhausted link redirects; null shows the 410 page. */
  expiredUrl: string | null;
}

export interface CompiledRule {
  tests: Array<(facts: Facts) => boolean>;
  /** Exactly one of these. */
  target: Target | null;
  split: Split | null;
}

/** Cumulative weights (`bounds[i]` = sum of weights 0..i) and one target per variant. */
export interface Split {
  bounds: number[];
  targets: Target[];
}

export interface RoutedVisit extends Visitor {
  /** The request's path with its query (`/abc?ref=x`); absent: no query. */
  url?: string;
  now: number;
}

const NO_QUERY = new URLSearchParams();

const agentHash = memoize(
  (userAgent) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < userAgent.length; i++) h = Math.imul(h ^ userAgent.charCodeAt(i), 0x01000193);
    return Math.imul(h ^ 10, 0x01000193);
  },
  10_000,
  1_024,
);

/** What conditions test, each worked out once per visit at most. */
export class Facts {
  private agentOf: Agent | undefined;
  private queryOf: URLSearchParams | undefined;
  private countryAt: Country | null | undefined;
  private addressOf: Address | null | undefined;

  constructor(readonly visit: RoutedVisit) {}

  get address(): Address | null {
    if (this.addressOf === undefined) this.addressOf = visitorAddress(this.visit.ip);
    return this.addressOf;
  }

  get agent(): Agent {
    return (this.agentOf ??= describeAgent(this.visit.userAgent));
  }

  get query(): URLSearchParams {
    if (this.queryOf === undefined) {
      const url = this.visit.url ?? '';
      const at = url.indexOf('?');
      this.queryOf = at < 0 ? NO_QUERY : new URLSearchParams(url.slice(at + 1));
    }
    return this.queryOf;
  }

  get country(): Country | null {
    if (this.countryAt === undefined) this.countryAt = countryOf(this.visit.ip);
    return this.countryAt;
  }

  get languages(): string[] {
    return this.visit.acceptLanguage ? languagesOf(this.visit.acceptLanguage) : [];
  }
}

/** Whether the cap is reached: the link then behaves as expired. */
export function exhausted(plan: RoutingPlan): boolean {
  return plan.cap !== null && plan.cap.used >= plan.cap.max;
}

/** Rules first, then the spec's targets, then the default split; undefined: the link's own destination. */
export function route(plan: RoutingPlan, targeting: Targeting | null, visit: RoutedVisit): Target | undefined {
  if (plan.rules.length) {
    const facts = new Facts(visit);
    for (const rule of plan.rules) {
      if (holds(rule.tests, facts)) return rule.target ?? variant(rule.split!, visit);
    }
  }
  const targeted = targeting ? target(targeting, visit) : undefined;
  if (targeted) return targeted;
  return plan.split ? variant(plan.split, visit) : undefined;
}

function holds(tests: Array<(facts: Facts) => boolean>, facts: Facts): boolean {
  for (let i = 0; i < tests.length; i++) if (!tests[i]!(facts)) return false;
  return true;
}

/** The visitor's variant: a stable hash of IP and user agent, so a visitor keeps theirs on every node and visit. */
export function variant(split: Split, visitor: Pick<Visitor, 'ip' | 'userAgent'>): Target {
  const total = split.bounds[split.bounds.length - 1]!;
  const point = visitorHash(visitor.ip, visitor.userAgent) % total;
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
  let h = agentHash(userAgent);
  const address = normalizeIp(ip);
  for (let i = 0; i < address.length; i++) h = Math.imul(h ^ address.charCodeAt(i), 0x01000193);
  // A final avalanche: FNV's low bits alone follow the last characters too closely.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
