import { normalizeLanguage } from '../../../lib/languages.js';
import { networkTest, parseNetwork } from '../../../lib/ip-match.js';
import { readRouting, type Condition, type Variant } from '../../../lib/routing.js';
import { parseTimestamp } from '../../../lib/time.js';
import { httpHref } from '../../../lib/urls.js';
import type { Target } from '../decide/targeting.js';
import { BoundedCache, memoize } from '../../../lib/bounded-cache.js';
import { BROWSER, COUNTRY, DATE, DEVICE, IP, LANGUAGE, OS, QUERY_ABSENT, QUERY_EQUALS, QUERY_PRESENT, type Check } from '../decide/checks.js';
import type { RoutingPlan, Split } from '../decide/routing.js';

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
  let numbered = 0;
  const splitOf = (variants: Variant[] | undefined, prefix: string): Split | null => {
    if (!Array.isArray(variants) || variants.length === 0) return null;
    const first = numbered;
    numbered += variants.length;
    return compileSplit(variants, first, prefix, finish);
  };
  const split = splitOf(routing.split, '');
  const targets: RoutingPlan['targets'] = [];
  const splits: RoutingPlan['splits'] = [];
  const conditions: string[] = [];
  for (const [i, rule] of (Array.isArray(routing.rules) ? routing.rules : []).entries()) {
    const key = JSON.stringify(rule.conditions ?? []);
    const href = rule.url ? httpHref(rule.url) : null;
    const ruleSplit = rule.split ? splitOf(rule.split, `rule:${i}/`) : null;
    if (checksOf(key) === null || (!href && !ruleSplit)) continue;
    conditions.push(key);
    targets.push(href ? { destination: finish(href, rule.url!), rule: `rule:${i}` } : null);
    splits.push(href ? null : ruleSplit);
  }
  const max = typeof routing.maxvisits === 'number' && routing.maxvisits > 0 ? routing.maxvisits : 0;
  const expiredUrl = routing.expiredurl ? httpHref(routing.expiredurl) : null;
  if (!targets.length && !split && !max && !expiredUrl) return null;
  return { checks: checkLists(conditions), targets, splits, split, cap: max ? { max, used: 0 } : null, expiredUrl };
}

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
/** A link's rules' checks in order, shared likewise, by their conditions' JSON (longer keys are not kept). */
const checkListsByKey = new BoundedCache<string, Check[][]>(10_000);
const MAX_LIST_KEY = 16_384;

function checkLists(conditions: string[]): Check[][] {
  const key = conditions.join('\n');
  let lists = checkListsByKey.get(key);
  if (lists === undefined) {
    lists = conditions.map((c) => checksOf(c)!);
    if (key.length <= MAX_LIST_KEY) checkListsByKey.set(key, lists);
  }
  return lists;
}

function compileSplit(variants: Variant[], first: number, prefix: string, finish: Finish): Split | null {
  const bounds: number[] = [];
  const targets: Target[] = [];
  let total = 0;
  for (const [i, v] of variants.entries()) {
    const raw = String(v.url ?? '');
    const href = httpHref(raw);
    if (!href || !(v.weight > 0)) continue;
    total += v.weight;
    bounds.push(total);
    targets.push({ destination: finish(href, raw), rule: `${prefix}split:${first + i}` });
  }
  return targets.length ? { bounds: sharedBounds(bounds), targets } : null;
}

const check = (kind: number, text = '', other = '', after = -Infinity, before = Infinity, inside: Check['inside'] = null): Check => ({
  kind,
  text,
  other,
  after,
  before,
  inside,
});

/** Splits' cumulative weights, shared by splits of the same weights (what a visit reads before its variant's target). */
const boundsByKey = new BoundedCache<string, number[]>(10_000);

function sharedBounds(bounds: number[]): number[] {
  const key = bounds.join(',');
  const shared = boundsByKey.get(key);
  if (shared !== undefined) return shared;
  boundsByKey.set(key, bounds);
  return bounds;
}

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
