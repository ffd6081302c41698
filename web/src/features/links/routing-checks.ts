import type { FieldErrors } from './checks.js';
import type { RoutingForm, VariantRow } from './routing-form.js';

/**
 * The ids the routing inputs carry, which errors name: `rule-{i}-cond-{j}` (a condition's first input),
 * `rule-{i}-url`, `rule-{i}-split-{k}-url|weight`, `split-{k}-url|weight`, `maxvisits`, `expiredurl`.
 */
export const conditionId = (rule: number, condition: number) => `rule-${rule}-cond-${condition}`;
export const ruleSplitId = (rule: number) => `rule-${rule}-split`;

const WEB = /^https?:\/\/[^\s/?#]+/i;
const WEB_ADDRESS = 'Enter a web address such as https://example.com/page.';

function splitErrors(split: VariantRow[], prefix: string, errors: FieldErrors) {
  split.forEach((v, k) => {
    if (!WEB.test(v.url.trim())) errors[`${prefix}-${k}-url`] = WEB_ADDRESS;
    const weight = v.weight.trim();
    if (!/^\d+$/.test(weight) || Number(weight) < 1 || Number(weight) > 10_000) errors[`${prefix}-${k}-weight`] = 'A whole number from 1 to 10000.';
  });
}

/**
 * What the browser can tell is missing before asking the server (an empty value, an address without a scheme,
 * a weight that is not a number). What only the server judges, such as whether an IP network reads, it answers.
 */
export function checkRouting(form: RoutingForm, judged: (name: keyof RoutingForm) => boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (judged('rules'))
    form.rules.forEach((rule, i) => {
      rule.conditions.forEach((c, j) => {
        const id = conditionId(i, j);
        if (c.type === 'query' && !c.name.trim()) errors[id] = 'Name the query parameter.';
        else if (c.type === 'date' && !c.after && !c.before) errors[id] = 'Give a start, an end or both.';
        else if (c.type !== 'query' && c.type !== 'date' && !c.value.trim()) errors[id] = 'Enter a value.';
      });
      if (rule.target === 'url' && !WEB.test(rule.url.trim())) errors[`rule-${i}-url`] = WEB_ADDRESS;
      if (rule.target === 'split') splitErrors(rule.split, ruleSplitId(i), errors);
    });
  if (judged('split')) splitErrors(form.split, 'split', errors);
  if (judged('maxvisits') && form.maxvisits.trim() && !/^\d+$/.test(form.maxvisits.trim())) errors.maxvisits = 'A whole number, or empty for no cap.';
  if (judged('expiredurl') && form.expiredurl.trim() && !WEB.test(form.expiredurl.trim())) errors.expiredurl = WEB_ADDRESS;
  return errors;
}

/**
 * The input a routing error of the API is about: its message starts with where (`rules[1].conditions[0]: …`,
 * `split[2].url: …`, `expiredurl: …`). A split's own count is shown at its list (`rule-0-split`, `split`).
 */
export function routingFieldOf(message: string): string | null {
  const where = /^([\w.[\]]+):/.exec(message)?.[1];
  if (!where) return null;
  if (where === 'expiredurl' || where === 'maxvisits') return where;
  const variant = (prefix: string, rest: string) => {
    const m = /^(?:\[(\d+)\](\.url)?)?$/.exec(rest);
    if (!m) return null;
    return m[1] === undefined ? prefix : `${prefix}-${m[1]}-${m[2] ? 'url' : 'weight'}`;
  };
  if (where.startsWith('split')) return variant('split', where.slice('split'.length));
  const rule = /^rules\[(\d+)\](.*)$/.exec(where);
  if (!rule) return null;
  const [, i, rest] = rule as unknown as [string, string, string];
  const condition = /^\.conditions\[(\d+)\]$/.exec(rest);
  if (condition) return conditionId(Number(i), Number(condition[1]));
  if (rest.startsWith('.split')) return variant(ruleSplitId(Number(i)), rest.slice('.split'.length));
  // The rule as a whole (its conditions' count, url or split): shown at its address.
  return `rule-${i}-url`;
}

/** The API's message without the place it names, since it is shown at that place. */
export const routingErrorText = (message: string) =>
  message
    .replace(/^[\w.[\]]+:\s*/, '')
    .replace(/^ip\b/, 'IP')
    .replace(/^./, (c) => c.toUpperCase());
