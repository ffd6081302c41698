import type { LinkDetailBody, LinkInput } from '../../lib/types.js';
import { inputToExpiry, timeToInput, withScheme } from './form-texts.js';

/**
 * The link form's routing (rules, the default split, the visit cap and the expired address) as texts the
 * inputs edit, and the way to and from the API's shapes (README "Routing"). Rows keep their order, empty ones
 * included, so `rules[1].conditions[0]` in a 400 names the row on screen.
 */
export const CONDITION_TYPES = ['query', 'ip', 'date', 'browser', 'os', 'device', 'language', 'country'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export interface ConditionRow {
  type: ConditionType;
  /** `query`: the parameter's name. */
  name: string;
  /** `query`: what it equals ("" for any value); `ip`, `browser`, `os`, `device`, `language`, `country`: the value. */
  value: string;
  absent: boolean;
  /** `date`: local datetime-local values, "" for no bound. */
  after: string;
  before: string;
}
export interface VariantRow {
  url: string;
  weight: string;
}
export interface RuleRow {
  conditions: ConditionRow[];
  /** Whether the rule sends visitors to one address or splits them. */
  target: 'url' | 'split';
  url: string;
  split: VariantRow[];
}
export interface RoutingForm {
  rules: RuleRow[];
  split: VariantRow[];
  maxvisits: string;
  expiredurl: string;
}

export const EMPTY_ROUTING: RoutingForm = { rules: [], split: [], maxvisits: '', expiredurl: '' };
export const newCondition = (type: ConditionType = 'query'): ConditionRow => ({ type, name: '', value: '', absent: false, after: '', before: '' });
export const newVariant = (url = ''): VariantRow => ({ url, weight: '1' });
export const newSplit = (url = ''): VariantRow[] => [newVariant(url), newVariant()];
export const newRule = (): RuleRow => ({ conditions: [newCondition()], target: 'url', url: '', split: newSplit() });

/** The list with item `i` moved by `by` places (kept in bounds). */
export function moved<T>(list: T[], i: number, by: number): T[] {
  const to = i + by;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[i], next[to]] = [next[to]!, next[i]!];
  return next;
}

/** Each variant's share of the split in whole percent (by its weight; 0 for a weight that does not read). */
export function shares(split: VariantRow[]): number[] {
  const weights = split.map((v) => (/^\d+$/.test(v.weight.trim()) ? Number(v.weight) : 0));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (total ? Math.round((w * 100) / total) : 0));
}

type Details = LinkDetailBody['details'];
type ApiCondition = Details['rules'][number]['conditions'][number];
type ApiVariant = { url: string; weight: number };

const variantRows = (split: ApiVariant[] | undefined) => (split ?? []).map((v) => ({ url: v.url, weight: String(v.weight) }));

function conditionRow(c: ApiCondition): ConditionRow {
  const type = (CONDITION_TYPES as readonly string[]).includes(c.type) ? (c.type as ConditionType) : 'query';
  return {
    type,
    name: c.name ?? '',
    value: c.value ?? '',
    absent: c.absent === true,
    after: timeToInput(c.after ?? null),
    before: timeToInput(c.before ?? null),
  };
}

/** The routing of a link as `GET /api/url/{id}` gives it back. */
export function routingOfLink(details: Details): RoutingForm {
  return {
    rules: details.rules.map((r) => ({
      conditions: r.conditions.map(conditionRow),
      target: r.split ? 'split' : 'url',
      url: r.url ?? '',
      split: r.split ? variantRows(r.split) : newSplit(),
    })),
    split: variantRows(details.split),
    maxvisits: details.maxvisits ? String(details.maxvisits) : '',
    expiredurl: details.expiredurl ?? '',
  };
}

function conditionBody(c: ConditionRow): ApiCondition {
  if (c.type === 'query') {
    if (c.absent) return { type: 'query', name: c.name.trim(), absent: true };
    return { type: 'query', name: c.name.trim(), ...(c.value !== '' ? { value: c.value } : {}) };
  }
  if (c.type === 'date') {
    const after = inputToExpiry(c.after);
    const before = inputToExpiry(c.before);
    return { type: 'date', ...(after ? { after } : {}), ...(before ? { before } : {}) };
  }
  return { type: c.type, value: c.value.trim() };
}

const variantBody = (split: VariantRow[]) => split.map((v) => ({ url: v.url.trim(), weight: Number(v.weight.trim()) }));

/** The routing fields of add's body; `all` sends empty ones too (an edit that changed them, to clear them). */
export function routingBody(form: RoutingForm, send: (name: keyof RoutingForm) => boolean, all: boolean): Partial<LinkInput> {
  const body: Partial<LinkInput> = {};
  if (send('rules') && (all || form.rules.length))
    body.rules = form.rules.map((r) => ({
      conditions: r.conditions.map(conditionBody),
      ...(r.target === 'split' ? { split: variantBody(r.split) } : { url: r.url.trim() }),
    }));
  if (send('split') && (all || form.split.length)) body.split = variantBody(form.split);
  if (send('maxvisits') && (all || form.maxvisits.trim())) body.maxvisits = form.maxvisits.trim() ? Number(form.maxvisits.trim()) : null;
  if (send('expiredurl') && (all || form.expiredurl.trim())) body.expiredurl = form.expiredurl.trim();
  return body;
}

/** The routing as it is sent: every address given its scheme. */
export function tidyRouting(form: RoutingForm): RoutingForm {
  const split = (list: VariantRow[]) => list.map((v) => ({ ...v, url: withScheme(v.url) }));
  return {
    ...form,
    rules: form.rules.map((r) => ({ ...r, url: withScheme(r.url), split: split(r.split) })),
    split: split(form.split),
    expiredurl: withScheme(form.expiredurl),
  };
}
