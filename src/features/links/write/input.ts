import type { LinkType, LinkUpdate } from '../../../db/types.js';
import { ALIAS_PATTERN, isReserved } from '../../../lib/reserved.js';
import { hashPassword } from '../../../infra/secrets.js';
import { parseTimestamp } from '../../../lib/time.js';
import { checkHttpUrl, optionalHttpUrl } from '../../../lib/urls.js';
import type { LinkInput } from '../schema.js';
import { fail } from '../../../lib/errors.js';
import { readRouting, routingText, rules as checkRules, split as checkSplit, type Routing } from '../../../lib/routing.js';

/** Field checks that need no database: each turns request values into column values. */

const MAX_TARGET_NAME = 100;
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/;

export function checkAlias(alias: string): string {
  if (!ALIAS_PATTERN.test(alias)) throw fail('alias_invalid', 'custom');
  if (isReserved(alias)) throw fail('alias_reserved', alias);
  return alias;
}

const invalidTarget = (field: string, what: string) => fail('invalid_field', `${field} must be ${what}.`);

/** A lower-cased, trimmed target name; languages also normalise `pt_BR` to `pt-br`. */
function targetName(value: string, field: string, language: boolean): string {
  const name = value.trim().toLowerCase();
  if (language) {
    const code = name.replace(/_/g, '-');
    if (!LANGUAGE.test(code)) throw invalidTarget(field, 'a language code such as "en" or "pt-br"');
    return code;
  }
  if (!name || name.length > MAX_TARGET_NAME) throw invalidTarget(field, `1 to ${MAX_TARGET_NAME} characters`);
  return name;
}

type TargetKey = 'location' | 'device' | 'language';

/** Targets as JSON text in the request's own shape, with checked links and normalised names. */
function targets<K extends TargetKey>(items: Array<Record<K | 'link', string>>, field: string, key: K): string {
  return JSON.stringify(
    items.map((item, i) => {
      checkHttpUrl(item.link, `${field}[${i}].link`);
      return { [key]: targetName(item[key], `${field}[${i}].${key}`, key === 'language'), link: item.link.trim() };
    }),
  );
}

function parameters(items: Array<{ name: string; value: string }>): string {
  return JSON.stringify(
    items.map((item, i) => {
      const name = item.name.trim();
      if (!name) throw invalidTarget(`parameters[${i}].name`, 'a non-empty name');
      return { name, value: item.value };
    }),
  );
}

/** null clears the expiry; undefined leaves it as it is. */
function expiry(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value.trim() === '') return null;
  if (!parseTimestamp(value.trim())) throw fail('expiry_invalid');
  return value.trim();
}

/** The plain columns named by the request; fields left out are left out, so an update keeps them. */
export function linkColumns(input: LinkInput): LinkUpdate {
  checkHttpUrl(input.url, 'url');
  const columns: LinkUpdate = { long_url: input.url.trim() };
  if (input.title !== undefined) columns.title = input.title.trim();
  if (input.description !== undefined) columns.description = input.description.trim();
  if (input.metatitle !== undefined) columns.meta_title = input.metatitle.trim();
  if (input.metadescription !== undefined) columns.meta_description = input.metadescription.trim();
  if (input.metaimage !== undefined) columns.meta_image = optionalHttpUrl(input.metaimage, 'metaimage');
  const until = expiry(input.expiry);
  if (until !== undefined) columns.expiry = until;
  if (input.geotarget) columns.geo_targets = targets(input.geotarget, 'geotarget', 'location');
  if (input.devicetarget) columns.device_targets = targets(input.devicetarget, 'devicetarget', 'device');
  if (input.languagetarget) columns.language_targets = targets(input.languagetarget, 'languagetarget', 'language');
  if (input.parameters) columns.parameters = parameters(input.parameters);
  if (input.healthcheck !== undefined) columns.health_check = input.healthcheck ? 1 : 0;
  if (input.fallbackurl !== undefined) columns.fallback_url = optionalHttpUrl(input.fallbackurl, 'fallbackurl');
  return columns;
}

/**
 * undefined: unchanged (or none on add); null: remove; else the argon2 hash. Any length: a link password is
 * no account password (clients send "1234"), and the per-link, per-client throttle is what guards it.
 */
export async function passwordColumn(value: string | undefined): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === '') return null;
  return hashPassword(value);
}

export type TypeChoice = { type: Exclude<LinkType, 'overlay'>; splashId?: number } | { type: 'overlay'; overlayId: number };

/** The redirection type as asked; ownership of splash and overlay ids is checked against the database later. */
export function parseType(value: string | undefined, onUpdate: boolean): TypeChoice | undefined {
  const text = value?.trim().toLowerCase();
  if (!text) return undefined;
  if (text === 'direct' || text === 'frame' || text === 'splash') return { type: text };
  if (/^\d{1,9}$/.test(text)) return { type: 'splash', splashId: Number(text) };
  const overlay = /^overlay-(\d{1,9})$/.exec(text);
  if (overlay && !onUpdate) return { type: 'overlay', overlayId: Number(overlay[1]) };
  throw fail('link_type_invalid', value!, onUpdate);
}

/**
 * The routing column (rules, split, maxvisits, expiredurl) after the fields sent are applied to `stored`
 * (update keeps what is not sent); undefined when none was sent.
 */
export function routingColumn(input: LinkInput, stored: string): string | undefined {
  const { rules, split, maxvisits, expiredurl } = input;
  if (rules === undefined && split === undefined && maxvisits === undefined && expiredurl === undefined) return undefined;
  const next: Routing = readRouting(stored);
  if (rules !== undefined) next.rules = checkRules(rules);
  if (split !== undefined) next.split = split.length ? checkSplit(split, 'split') : undefined;
  if (maxvisits !== undefined) next.maxvisits = maxvisits || undefined;
  if (expiredurl !== undefined) next.expiredurl = expiredurl?.trim() ? expiredUrl(expiredurl) : undefined;
  return routingText(next);
}

function expiredUrl(value: string): string {
  try {
    return optionalHttpUrl(value, 'expiredurl');
  } catch {
    throw fail('rule_invalid', 'expiredurl', 'must be an http(s) URL.');
  }
}
