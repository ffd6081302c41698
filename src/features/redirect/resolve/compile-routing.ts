import { normalizeLanguage } from '../../../lib/languages.js';
import { networkTest, parseNetwork } from '../../../lib/ip-match.js';
import { readRouting, type Condition, type Variant } from '../../../lib/routing.js';
import { parseTimestamp } from '../../../lib/time.js';
import { httpHref } from '../../../lib/urls.js';
import { sharedLabel } from './finish.js';
import { BoundedCache, memoize } from '../../../lib/bounded-cache.js';
import { BROWSER, COUNTRY, DATE, DEVICE, IP, LANGUAGE, OS, QUERY_ABSENT, QUERY_EQUALS, QUERY_PRESENT, type Check } from '../decide/checks.js';
import { routingPlan, type RouteShape, type RoutingPlan, type Split } from '../decide/routing.js';

/** A destination as served: `href` is the address read, `raw` the address as stored (how health names it). */
export type Finish = (href: string, raw: string) => string;

/**
 * The routing column made into checks, once per cache fill; null for "" (nearly every link). What the
 * write path checked is trusted, but a rule or variant that no longer reads is skipped, never fatal.
 * Variants are numbered the default split's first, then each rule's, as the click summary labels them.
 */
export function compileRouting(stored: string, finish: Finish): RoutingPlan | null {
  if (!stored) return null;
  const routing = readRouting(stored);
  const plan = new PlanBuilder(finish);
  const split = plan.split(routing.split, '');
  const conditions: string[] = [];
  for (const [i, rule] of (Array.isArray(routing.rules) ? routing.rules : []).entries()) {
    const key = JSON.stringify(rule.conditions ?? []);
    const href = rule.url ? httpHref(rule.url) : null;
    const ruleSplit = rule.split ? plan.split(rule.split, `rule:${i}/`) : -1;
    if (checksOf(key) === null || (!href && ruleSplit < 0)) continue;
    conditions.push(key);
    plan.picks.push(href ? plan.destination(href, rule.url!, `rule:${i}`) : -1 - ruleSplit);
  }
  const max = typeof routing.maxvisits === 'number' && routing.maxvisits > 0 ? routing.maxvisits : 0;
  const expiredUrl = routing.expiredurl ? httpHref(routing.expiredurl) : null;
  if (!plan.picks.length && split < 0 && !max && !expiredUrl) return null;
  return routingPlan(plan.shape(conditions, split), plan.destinations, max ? { max, used: 0 } : null, expiredUrl);
}

/** A plan's destinations as they are compiled, with their labels, picks and splits (the shape, shared once built). */
class PlanBuilder {
  readonly destinations: string[] = [];
  readonly labels: string[] = [];
  readonly picks: number[] = [];
  private readonly splits: Split[] = [];
  private numbered = 0;

  constructor(private readonly finish: Finish) {}

  destination(href: string, raw: string, label: string): number {
    this.labels.push(sharedLabel(label));
    return this.destinations.push(this.finish(href, raw)) - 1;
  }

  /** A split's index in the shape, -1 when none of its variants reads. */
  split(variants: Variant[] | undefined, prefix: string): number {
    if (!Array.isArray(variants) || variants.length === 0) return -1;
    const first = this.numbered;
    this.numbered += variants.length;
    const bounds: number[] = [];
    const start = this.destinations.length;
    let total = 0;
    for (const [i, v] of variants.entries()) {
      const raw = String(v.url ?? '');
      const href = httpHref(raw);
      if (!href || !(v.weight > 0)) continue;
      bounds.push((total += v.weight));
      this.destination(href, raw, `${prefix}split:${first + i}`);
    }
    return bounds.length ? this.splits.push({ bounds, first: start }) - 1 : -1;
  }

  /** The shape, shared by every plan of the same parts (`conditions`: each rule's as JSON). */
  shape(conditions: string[], split: number): RouteShape {
    const key = [
      ...conditions,
      this.labels.join(','),
      this.picks.join(','),
      this.splits.map((s) => `${s.first}:${s.bounds.join(',')}`).join(';'),
      String(split),
    ].join('\n');
    let shape = shapes.get(key);
    if (shape === undefined) {
      const lists = conditions.map((c) => checksOf(c)!);
      let end = 0;
      const ends = lists.map((list) => (end += list.length));
      shape = { checks: lists.flat(), ends, picks: this.picks, splits: this.splits, split, labels: this.labels };
      if (key.length <= MAX_SHAPE_KEY) shapes.set(key, shape);
    }
    return shape;
  }
}

/** Shapes by their parts, so links of the same rules and weights read one copy (warm in the CPU's caches). */
const shapes = new BoundedCache<string, RouteShape>(10_000);
const MAX_SHAPE_KEY = 16_384;

/**
 * Compiled conditions by their JSON, shared by every link with the same ones: checks never change, and a visit
 * to any of those links then reads one copy (warm in the CPU's caches) instead of a copy of its own. null: a
 * condition that no longer reads.
 */
const checksOf = memoize(
  (conditions): Check[] | null => {
    const checks = (JSON.parse(conditions) as Condition[]).map(compileCondition);
    return checks.some((c) => c === null) ? null : (checks as Check[]);
  },
  10_000,
  4_096,
);
const check = (kind: number, text = '', other = '', after = -Infinity, before = Infinity, inside: Check['inside'] = null): Check => ({
  kind,
  text,
  other,
  after,
  before,
  inside,
});

/** A condition as a check over its parsed operands; null when it no longer reads. */
function compileCondition(c: Condition): Check | null {
  switch (c.type) {
    case 'query': {
      const { name, value, absent } = c;
      if (absent) return check(QUERY_ABSENT, name);
      return value === undefined ? check(QUERY_PRESENT, name) : check(QUERY_EQUALS, name, value);
    }
    case 'ip': {
      const network = parseNetwork(c.value);
      return network ? check(IP, '', '', -Infinity, Infinity, networkTest(network)) : null;
    }
    case 'date': {
      const after = c.after ? (parseTimestamp(c.after)?.getTime() ?? NaN) : -Infinity;
      const before = c.before ? (parseTimestamp(c.before)?.getTime() ?? NaN) : Infinity;
      return Number.isNaN(after) || Number.isNaN(before) ? null : check(DATE, '', '', after, before);
    }
    default:
      return valueCheck(
        c.type,
        String(c.value ?? '')
          .trim()
          .toLowerCase(),
      );
  }
}

const VALUE_KINDS = new Map<string, number>([
  ['browser', BROWSER],
  ['os', OS],
  ['device', DEVICE],
  ['country', COUNTRY],
]);

function valueCheck(kind: string, value: string): Check | null {
  if (!value) return null;
  if (kind === 'language') {
    const code = normalizeLanguage(value);
    // A code without region also matches its regional forms (`fr` matches `fr-ca`).
    return check(LANGUAGE, code, code.includes('-') ? '' : `${code}-`);
  }
  const known = VALUE_KINDS.get(kind);
  return known === undefined ? null : check(known, value);
}
