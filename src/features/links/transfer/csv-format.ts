import type { Config } from '../../../config.js';
import { fail } from '../../../lib/errors.js';
import { parseTimestamp, formatTimestamp } from '../../../lib/time.js';
import { shortUrl } from '../../../lib/short-url.js';
import type { ExportedLink } from '../repo.js';
import { domainOf, routingFields, typeField } from '../view.js';

/**
 * Redirectory's own CSV of links, both ways: every field `POST /api/url/add` takes (targets, parameters and
 * pixels as JSON text) plus what the detail shows, so an export imports back to the same links.
 */
export const EXPORT_COLUMNS = [
  'id',
  'alias',
  'domain',
  'shorturl',
  'longurl',
  'title',
  'description',
  'metatitle',
  'metadescription',
  'metaimage',
  'type',
  'expiry',
  'geotarget',
  'devicetarget',
  'languagetarget',
  'parameters',
  'pixels',
  'campaign',
  'tags',
  'protected',
  'password',
  'date',
  'clicks',
  'uniqueClicks',
  'healthcheck',
  'fallbackurl',
  'health',
  'rules',
  'split',
  'maxvisits',
  'expiredurl',
] as const;

/** One link as a CSV record (`health` is the last check's status, informative: an import ignores it); passwords are stored hashed and never leave the service, so `password` is empty. Tags are joined with `|`, as Shlink's export does. */
export function exportRecord(
  config: Config,
  link: ExportedLink,
  pixels: number[] = [],
  tags: string[] = [],
  health = 'unknown',
): Record<(typeof EXPORT_COLUMNS)[number], string | number> {
  const domain = domainOf(link);
  return {
    id: link.id,
    alias: link.alias,
    domain: domain ? `${domain.scheme}://${domain.host}` : '',
    shorturl: shortUrl(config, domain, link.alias),
    longurl: link.long_url,
    title: link.title,
    description: link.description,
    metatitle: link.meta_title,
    metadescription: link.meta_description,
    metaimage: link.meta_image,
    type: typeField(link),
    expiry: link.expiry ?? '',
    geotarget: link.geo_targets,
    devicetarget: link.device_targets,
    languagetarget: link.language_targets,
    parameters: link.parameters,
    pixels: JSON.stringify(pixels),
    campaign: link.campaign_id ?? '',
    tags: tags.join('|'),
    protected: link.password_hash ? 1 : 0,
    password: '',
    date: link.created_at,
    clicks: Number(link.clicks),
    uniqueClicks: Number(link.uniques),
    healthcheck: Number(link.health_check) === 1 ? 1 : 0,
    fallbackurl: link.fallback_url,
    health,
    ...routingCells(link.routing),
  };
}

/** The routing fields as the detail shows them: rules and split as JSON text, the cap empty when none. */
function routingCells(stored: string) {
  const { rules, split, maxvisits, expiredurl } = routingFields(stored);
  return { rules: JSON.stringify(rules), split: JSON.stringify(split), maxvisits: maxvisits ?? '', expiredurl };
}

/** A CSV record keyed by normalised header names (see normaliseHeader). */
export type CsvRecord = Record<string, string>;

/** What one CSV row asks for: the body of url/add, its creation date, and whether it needs a password it lacks. */
export interface ImportRow {
  input: Record<string, unknown>;
  createdAt?: string;
  /** The row was password-protected where it came from, and no password was given. */
  locked?: boolean;
}

export { normaliseHeader } from './column-names.js';

const YES = new Set(['1', 'true', 'yes']);
export const isYes = (value: string | undefined) => YES.has((value ?? '').trim().toLowerCase());

function json(record: CsvRecord, column: string, field: string): unknown {
  const text = record[column]?.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw fail('invalid_field', `${field} must be JSON text such as ${field === 'pixels' ? '[1,2]' : '[{"…":"…","link":"https://…"}]'}.`);
  }
}

/** A date in any form Date reads (ISO 8601 with a zone, or ours, `YYYY-MM-DD HH:MM:SS` UTC) as our timestamp. */
export function timestampOf(value: string | undefined, field: string): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (parseTimestamp(text)) return text;
  const date = new Date(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text.replace(' ', 'T')}Z` : text);
  if (Number.isNaN(date.getTime()))
    throw fail('invalid_field', `${field} must be a date such as 2026-01-31 12:00:00 (UTC) or 2026-01-31T12:00:00+01:00; got "${text}".`);
  return formatTimestamp(date);
}

const present = (value: string | undefined) => (value?.trim() ? value : undefined);

/** A cell of tags: `a|b` (Shlink, ours), `a, b` or `["a","b"]` (Bitly); no tag holds a comma or a `|`. */
export function tagsCell(value: string | undefined): string[] | undefined {
  const tags = (value ?? '')
    .trim()
    .replace(/^\[|\]$/g, '')
    .split(/[,|]/)
    .map((tag) => tag.trim().replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
  return tags.length > 0 ? tags : undefined;
}

/** One record of our own export as the body of url/add; `defaultDomain` applies to rows without a domain. */
export function ownRow(record: CsvRecord, defaultDomain?: string): ImportRow {
  const campaign = record.campaign?.trim();
  const password = present(record.password);
  const input: Record<string, unknown> = {
    url: record.longurl ?? '',
    custom: present(record.alias),
    domain: present(record.domain) ?? defaultDomain,
    type: present(record.type),
    password,
    expiry: present(record.expiry),
    title: record.title,
    description: record.description,
    metatitle: record.metatitle,
    metadescription: record.metadescription,
    metaimage: record.metaimage,
    geotarget: json(record, 'geotarget', 'geotarget'),
    devicetarget: json(record, 'devicetarget', 'devicetarget'),
    languagetarget: json(record, 'languagetarget', 'languagetarget'),
    parameters: json(record, 'parameters', 'parameters'),
    pixels: json(record, 'pixels', 'pixels'),
    campaign: campaign ? (/^\d{1,9}$/.test(campaign) ? Number(campaign) : campaign) : undefined,
    tags: tagsCell(record.tags),
    healthcheck: present(record.healthcheck) === undefined ? undefined : isYes(record.healthcheck),
    fallbackurl: present(record.fallbackurl),
    rules: json(record, 'rules', 'rules'),
    split: json(record, 'split', 'split'),
    maxvisits: present(record.maxvisits) === undefined ? undefined : Number(record.maxvisits),
    expiredurl: present(record.expiredurl),
  };
  return { input, createdAt: timestampOf(record.date, 'date'), locked: isYes(record.protected) && !password };
}
