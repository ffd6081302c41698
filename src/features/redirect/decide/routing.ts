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

/** A user agent's part in routing, once per distinct string: its hash, and its parse once a condition asks. */
interface AgentFacts {
  hash: number;
  agent: Agent | undefined;
}
/** An address's: written as IPv4 when IPv4-mapped (what the hash reads), and parsed once an `ip` condition asks. */
interface IpFacts {
  written: string;
  address: Address | null | undefined;
}

// One memo entry per header string instead of one per fact: each lookup hashes and compares the string.
const agentFacts = memoize(
  (userAgent): AgentFacts => {
    let h = 0x811c9dc5;
    for (let i = 0; i < userAgent.length; i++) h = Math.imul(h ^ userAgent.charCodeAt(i), 0x01000193);
    return { hash: Math.imul(h ^ 10, 0x01000193), agent: undefined };
  },
  10_000,
  1_024,
);
const ipFacts = memoize((ip): IpFacts => ({ written: normalizeIp(ip), address: undefined }), 10_000, 64);

/** What conditions test, each worked out once per visit at most. */
export class Facts {
  private agentOf: AgentFacts | undefined;
  private ipOf: IpFacts | undefined;
  private queryOf: URLSearchParams | null | undefined;
  private countryAt: Country | null | undefined;

  constructor(readonly visit: RoutedVisit) {}

  get agentFacts(): AgentFacts {
    return (this.agentOf ??= agentFacts(this.visit.userAgent));
  }

  get ipFacts(): IpFacts {
    return (this.ipOf ??= ipFacts(this.visit.ip));
  }

  get address(): Address | null {
    const ip = this.ipFacts;
    if (ip.address === undefined) ip.address = visitorAddress(this.visit.ip);
    return ip.address;
  }

  get agent(): Agent {
    const facts = this.agentFacts;
    return (facts.agent ??= describeAgent(this.visit.userAgent));
  }

  /** null without a query, the common case. */
  get query(): URLSearchParams | null {
    if (this.queryOf === undefined) {
      const url = this.visit.url ?? '';
      const at = url.indexOf('?');
      this.queryOf = at < 0 ? null : new URLSearchParams(url.slice(at + 1));
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
  const facts = new Facts(visit);
  for (const rule of plan.rules) {
    if (holds(rule.tests, facts)) return rule.target ?? pick(rule.split!, hashOf(facts.agentFacts, facts.ipFacts));
  }
  const targeted = targeting ? target(targeting, visit) : undefined;
  if (targeted) return targeted;
  return plan.split ? pick(plan.split, hashOf(facts.agentFacts, facts.ipFacts)) : undefined;
}

function holds(tests: Array<(facts: Facts) => boolean>, facts: Facts): boolean {
  for (let i = 0; i < tests.length; i++) if (!tests[i]!(facts)) return false;
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
