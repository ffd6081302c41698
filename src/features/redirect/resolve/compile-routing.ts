import { normalizeLanguage } from '../../../lib/languages.js';
import { networkTest, parseNetwork } from '../../../lib/ip-match.js';
import { readRouting, type Condition, type Variant } from '../../../lib/routing.js';
import { parseTimestamp } from '../../../lib/time.js';
import { httpHref } from '../../../lib/urls.js';
import type { Target } from '../decide/targeting.js';
import type { CompiledRule, Facts, RoutingPlan, Split } from '../decide/routing.js';

type Test = (facts: Facts) => boolean;
/** A destination as served: `href` is the address read, `raw` the address as stored (how health names it). */
export type Finish = (href: string, raw: string) => string;

/**
 * The routing column made into closures, once per cache fill; null for "" (nearly every link). What the
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
  const rules: CompiledRule[] = [];
  for (const [i, rule] of (Array.isArray(routing.rules) ? routing.rules : []).entries()) {
    const tests = (rule.conditions ?? []).map(compileCondition);
    const href = rule.url ? httpHref(rule.url) : null;
    const ruleSplit = rule.split ? splitOf(rule.split, `rule:${i}/`) : null;
    if (tests.some((t) => t === null) || (!href && !ruleSplit)) continue;
    rules.push({
      tests: tests as Test[],
      target: href ? { destination: finish(href, rule.url!), rule: `rule:${i}` } : null,
      split: href ? null : ruleSplit,
    });
  }
  const max = typeof routing.maxvisits === 'number' && routing.maxvisits > 0 ? routing.maxvisits : 0;
  const expiredUrl = routing.expiredurl ? httpHref(routing.expiredurl) : null;
  if (!rules.length && !split && !max && !expiredUrl) return null;
  return { rules, split, cap: max ? { max, used: 0 } : null, expiredUrl };
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
  return targets.length ? { bounds, targets } : null;
}

/** A condition as a closure over its parsed operands; null when it no longer reads. */
function compileCondition(c: Condition): Test | null {
  switch (c.type) {
    case 'query': {
      const { name, value, absent } = c;
      // Most visits have no query: `null`, not an empty URLSearchParams asked.
      if (absent) return (f) => f.query === null || !f.query.has(name);
      return value === undefined ? (f) => f.query !== null && f.query.has(name) : (f) => f.query !== null && f.query.has(name, value);
    }
    case 'ip': {
      const network = parseNetwork(c.value);
      if (!network) return null;
      const inside = networkTest(network);
      return (f) => inside(f.address);
    }
    case 'date': {
      const after = c.after ? (parseTimestamp(c.after)?.getTime() ?? NaN) : -Infinity;
      const before = c.before ? (parseTimestamp(c.before)?.getTime() ?? NaN) : Infinity;
      return Number.isNaN(after) || Number.isNaN(before) ? null : (f) => f.visit.now >= after && f.visit.now < before;
    }
    default:
      return valueTest(
        c.type,
        String(c.value ?? '')
          .trim()
          .toLowerCase(),
      );
  }
}

function valueTest(kind: string, value: string): Test | null {
  if (!value) return null;
  switch (kind) {
    case 'browser':
      return (f) => f.agent.browserKeys.includes(value);
    case 'os':
      return (f) => f.agent.osKey === value || f.agent.names.includes(value);
    case 'device':
      return (f) => f.agent.names.includes(value);
    case 'language': {
      const code = normalizeLanguage(value);
      const primaryOnly = !code.includes('-');
      const prefix = `${code}-`;
      return (f) => {
        const tags = f.languages;
        for (let i = 0; i < tags.length; i++) if (tags[i] === code || (primaryOnly && tags[i]!.startsWith(prefix))) return true;
        return false;
      };
    }
    case 'country':
      return (f) => {
        const country = f.country;
        return country !== null && (country.code.toLowerCase() === value || country.name.toLowerCase() === value);
      };
    default:
      return null;
  }
}
