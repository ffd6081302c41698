import { AppError, fail } from './errors.js';
import { parseNetwork } from './ip-match.js';
import { normalizeLanguage } from './languages.js';
import { parseTimestamp } from './time.js';
import { checkHttpUrl } from './urls.js';

/**
 * A link's routing (issue 27) in add's request shapes: ordered rules (first match wins), a weighted split
 * of the default destination, a visit cap and where an expired link sends visitors. One checker for the
 * write path (which answers its errors) and the compiler of the redirect path (which trusts what was stored).
 */
export type Condition =
  | { type: 'query'; name: string; value?: string; absent?: boolean }
  | { type: 'ip'; value: string }
  | { type: 'date'; after?: string; before?: string }
  | { type: ValueKind; value: string };
export type ValueKind = 'browser' | 'os' | 'device' | 'language' | 'country';
export interface Variant {
  url: string;
  weight: number;
}
export interface Rule {
  conditions: Condition[];
  url?: string;
  split?: Variant[];
}
export interface Routing {
  rules?: Rule[];
  split?: Variant[];
  maxvisits?: number;
  expiredurl?: string;
}

export const MAX_RULES = 20;
export const MAX_CONDITIONS = 10;
export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 10;
export const MAX_WEIGHT = 10_000;
const VALUE_KINDS = new Set<string>(['browser', 'os', 'device', 'language', 'country']);
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/;
const MAX_NAME = 100;

const bad = (where: string, what: string) => fail('rule_invalid', where, what);
const text = (value: unknown): value is string => typeof value === 'string';

/** A URL field, as the rest of add checks them, but answered as a rule error. */
function url(value: unknown, where: string): string {
  if (!text(value)) throw bad(where, 'must be an http(s) URL.');
  try {
    checkHttpUrl(value, where);
  } catch (error) {
    throw error instanceof AppError ? bad(where, 'must be an http(s) URL.') : error;
  }
  return value.trim();
}

function condition(raw: unknown, where: string): Condition {
  const c = (raw ?? {}) as Record<string, unknown>;
  if (c.type === 'query') {
    if (!text(c.name) || !c.name.trim() || c.name.length > MAX_NAME) throw bad(where, `query needs a name of 1 to ${MAX_NAME} characters.`);
    if (c.absent !== undefined && c.absent !== true) throw bad(where, 'absent must be true when sent.');
    if (c.absent && c.value !== undefined) throw bad(where, 'send value or absent, not both.');
    if (c.value !== undefined && !text(c.value)) throw bad(where, 'value must be a string.');
    return { type: 'query', name: c.name.trim(), ...(text(c.value) ? { value: c.value } : {}), ...(c.absent ? { absent: true } : {}) };
  }
  if (c.type === 'ip') {
    if (!text(c.value) || !parseNetwork(c.value))
      throw bad(where, 'ip needs a value: an IPv4 or IPv6 address or CIDR network such as 203.0.113.0/24.');
    return { type: 'ip', value: c.value.trim() };
  }
  if (c.type === 'date') return dateCondition(c, where);
  if (text(c.type) && VALUE_KINDS.has(c.type)) {
    const value = text(c.value) ? c.value.trim() : '';
    if (!value || value.length > MAX_NAME) throw bad(where, `${c.type} needs a value of 1 to ${MAX_NAME} characters.`);
    if (c.type === 'language' && !LANGUAGE.test(normalizeLanguage(value))) throw bad(where, 'language needs a code such as "fr" or "pt-br".');
    return { type: c.type as ValueKind, value };
  }
  throw bad(where, 'type must be query, ip, date, browser, os, device, language or country.');
}

function dateCondition(c: Record<string, unknown>, where: string): Condition {
  const bound = (name: 'after' | 'before'): string | undefined => {
    const value = c[name];
    if (value === undefined) return undefined;
    if (!text(value) || !parseTimestamp(value.trim())) throw bad(where, `${name} must be YYYY-MM-DD HH:MM:SS (UTC).`);
    return value.trim();
  };
  const after = bound('after');
  const before = bound('before');
  if (after === undefined && before === undefined) throw bad(where, 'date needs after, before or both.');
  return { type: 'date', ...(after !== undefined ? { after } : {}), ...(before !== undefined ? { before } : {}) };
}

export function split(raw: unknown, where: string): Variant[] {
  if (!Array.isArray(raw) || raw.length < MIN_VARIANTS || raw.length > MAX_VARIANTS)
    throw bad(where, `a split has ${MIN_VARIANTS} to ${MAX_VARIANTS} variants.`);
  return raw.map((v: Record<string, unknown> | null, i) => {
    const weight = v?.weight;
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 1 || weight > MAX_WEIGHT)
      throw bad(`${where}[${i}]`, `weight must be a whole number from 1 to ${MAX_WEIGHT}.`);
    return { url: url(v?.url, `${where}[${i}].url`), weight };
  });
}

export function rule(raw: unknown, where: string): Rule {
  const r = (raw ?? {}) as Record<string, unknown>;
  if (!Array.isArray(r.conditions) || r.conditions.length < 1 || r.conditions.length > MAX_CONDITIONS)
    throw bad(where, `conditions must list 1 to ${MAX_CONDITIONS} conditions.`);
  const conditions = r.conditions.map((c, i) => condition(c, `${where}.conditions[${i}]`));
  if ((r.url === undefined) === (r.split === undefined)) throw bad(where, 'send url or split (not both).');
  return r.split !== undefined ? { conditions, split: split(r.split, `${where}.split`) } : { conditions, url: url(r.url, `${where}.url`) };
}

export function rules(raw: unknown): Rule[] {
  if (!Array.isArray(raw) || raw.length > MAX_RULES) throw bad('rules', `at most ${MAX_RULES} rules.`);
  return raw.map((r, i) => rule(r, `rules[${i}]`));
}

/** The stored column: "" when nothing is set, so the redirect path skips it with one test. */
export function routingText(routing: Routing): string {
  const kept = Object.fromEntries(Object.entries(routing).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
  return Object.keys(kept).length ? JSON.stringify(kept) : '';
}

/** The stored column read back; {} when empty or unreadable. */
export function readRouting(stored: string): Routing {
  if (!stored) return {};
  try {
    const value: unknown = JSON.parse(stored);
    return value && typeof value === 'object' ? (value as Routing) : {};
  } catch {
    return {};
  }
}

/** Every split variant's URL, numbered as the redirect records them: the default split's, then each rule's split in order. */
export function variantUrls(stored: string): string[] {
  const routing = readRouting(stored);
  return [...(routing.split ?? []), ...(routing.rules ?? []).flatMap((r) => r.split ?? [])].map((v) => v.url);
}
