import type { Config } from '../../config.js';
import type { LinkRow } from '../../db/types.js';
import { shortUrl, type DomainRef } from '../../lib/short-url.js';
import type { Stats } from '../stats/service.js';
import { readRouting } from '../../lib/routing.js';
import type { LinkWithDomain } from './repo.js';
import { UNKNOWN, type HealthView } from '../health/access.js';

/** Social networks the detail always reports, 0 when nobody came from them. */
// `google` stays listed for clients written against the spec's original answers; it is a search engine now, so it stays 0.
export const SOCIAL_KEYS = ['facebook', 'twitter', 'google'];

export function domainOf(link: { host: string | null; scheme: string | null }): DomainRef | null {
  return link.host && link.scheme ? { host: link.host, scheme: link.scheme } : null;
}

/**
 * The spec's requests set `metatitle`/`metadescription` and its answers show `title`/`description`: a
 * title set through the extension field wins, else the meta one (clients show `title`).
 */
export function shownText(link: Pick<LinkRow, 'title' | 'description' | 'meta_title' | 'meta_description'>) {
  return { title: link.title || link.meta_title, description: link.description || link.meta_description };
}

/** A link whose checks are off shows no stale finding. */
export function shownHealth(link: Pick<LinkRow, 'health_check'>, health: HealthView | undefined): HealthView {
  return Number(link.health_check) === 1 && health ? health : UNKNOWN;
}

export function toEntry(config: Config, link: LinkWithDomain, tags: string[] = [], health?: HealthView) {
  return {
    id: link.id,
    alias: link.alias,
    shorturl: shortUrl(config, domainOf(link), link.alias),
    longurl: link.long_url,
    clicks: Number(link.clicks),
    ...shownText(link),
    date: link.created_at,
    tags,
    health: shownHealth(link, health),
  };
}

/** The `type` field as add takes it: direct, frame, splash, a splash page id or overlay-{id}. */
export function typeField(link: Pick<LinkRow, 'type' | 'splash_id' | 'overlay_id'>): string {
  if (link.type === 'overlay' && link.overlay_id) return `overlay-${link.overlay_id}`;
  if (link.type === 'splash' && link.splash_id) return String(link.splash_id);
  return link.type;
}

/** A stored JSON list in add's shape, keeping the entries whose named fields are strings. */
function storedList<K extends string>(json: string, keys: readonly K[]): Array<Record<K, string>> {
  let items: unknown;
  try {
    items = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(items)) return [];
  return (items as Array<Record<string, unknown>>)
    .filter((item) => keys.every((key) => typeof item?.[key] === 'string'))
    .map((item) => Object.fromEntries(keys.map((key) => [key, item[key]])) as Record<K, string>);
}

/** Stored targets `[{location, link}]` as the detail's name → URL object. */
function targetMap(json: string, key: 'location' | 'device'): Record<string, string> {
  return Object.fromEntries(storedList(json, [key, 'link']).map((item) => [item[key], item.link]));
}

/** What the detail adds from other tables' owners. */
export interface LinkRefIds {
  pixels: number[];
  channel: number | null;
  tags: string[];
  health?: HealthView;
}

/** The link's fields as `url/add` takes them (extension), so an edit form sends them back unchanged. */
function addFields(link: LinkWithDomain, refs: LinkRefIds) {
  const domain = domainOf(link);
  return {
    custom: link.alias,
    domain: domain ? `${domain.scheme}://${domain.host}` : null,
    type: typeField(link),
    password: link.password_hash !== null,
    geotarget: storedList(link.geo_targets, ['location', 'link']),
    devicetarget: storedList(link.device_targets, ['device', 'link']),
    languagetarget: storedList(link.language_targets, ['language', 'link']),
    parameters: storedList(link.parameters, ['name', 'value']),
    ...routingFields(link.routing),
    metatitle: link.meta_title,
    metadescription: link.meta_description,
    metaimage: link.meta_image,
    pixels: refs.pixels,
    campaign: link.campaign_id,
    channel: refs.channel,
    tags: refs.tags,
    healthcheck: Number(link.health_check) === 1,
    fallbackurl: link.fallback_url,
  };
}

/** The routing fields as add took them; absent ones read back as none. */
export function routingFields(stored: string) {
  const routing = readRouting(stored);
  return { rules: routing.rules ?? [], split: routing.split ?? [], maxvisits: routing.maxvisits ?? null, expiredurl: routing.expiredurl ?? '' };
}

type VariantCount = { url: string; clicks: number; uniqueClicks: number };

export function toDetail(config: Config, link: LinkWithDomain, refs: LinkRefIds, stats: Stats & { variants?: VariantCount[] }) {
  return {
    error: 0 as const,
    details: {
      id: link.id,
      shorturl: shortUrl(config, domainOf(link), link.alias),
      longurl: link.long_url,
      ...shownText(link),
      location: targetMap(link.geo_targets, 'location'),
      device: targetMap(link.device_targets, 'device'),
      expiry: link.expiry,
      date: link.created_at,
      health: shownHealth(link, refs.health),
      ...addFields(link, refs),
    },
    data: stats,
  };
}
