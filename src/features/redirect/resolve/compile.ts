import type { Config } from '../../../config.js';
import type { MaybePromise } from '../../../lib/maybe-promise.js';
import { isReserved } from '../../../lib/reserved.js';
import { httpHref } from '../../../lib/urls.js';
import { shortUrl, type DomainRef } from '../../../lib/short-url.js';
import { parseTimestamp } from '../../../lib/time.js';
import { bundlePixels, type PixelBundle } from '../decide/pixels.js';
import type { Db } from '../../../db/connect.js';
import { LINK_TYPES, type LinkType, type OverlayRow, type SplashRow } from '../../../db/types.js';
import * as accountPages from '../../custom-pages/public.js';
import type { PublicLinkRow, PublicRepo } from './repo.js';
import { normalizeLanguage, type Target, type Targeting } from '../decide/targeting.js';
import { hostKey } from '../../../lib/hosts.js';
import type { RoutingPlan } from '../decide/routing.js';
import { compileRouting } from './compile-routing.js';
import { brokenDestinations } from '../../health/access.js';
import { fallbackDestinations, finisher, jsonArray, sharedLabel, str, type Finish } from './finish.js';

export { fallbackDestinations, withParameters } from './finish.js';

export type { LinkType };

/** A link as the public side serves it: parsed, validated and prebuilt once per cache fill. */
export interface CompiledLink {
  kind: 'link';
  id: number;
  /** The owning account, whose series counts the click. */
  owner: number;
  alias: string;
  shortUrl: string;
  /** Password cookies get `Secure` when the short URL is https. */
  secure: boolean;
  type: LinkType;
  /** The long URL with the link's parameters, ASCII-serialized for Location. */
  destination: string;
  /**
   * Unix ms; null when the link never expires, so the check of nearly every visit reads no number box: a field that
   * holds large numbers keeps each in an object of its own, a read that misses the CPU's caches (docs/performance.md#held-destinations).
   */
  expiresAt: number | null;
  passwordHash: string | null;
  targeting: Targeting | null;
  /** Rules, split, visit cap and expired URL (issue 27); null for nearly every link. */
  routing: RoutingPlan | null;
  meta: { title: string; description: string; image: string };
  /** Destinations on our own hosts' reserved paths (/api, /docs…): linked, never framed. */
  unframeable: Set<string> | null;
  pixels: PixelBundle | null;
  splash: Pick<SplashRow, 'title' | 'content' | 'image'> | null;
  overlay: Pick<OverlayRow, 'type' | 'message' | 'button_text' | 'button_link' | 'email'> | null;
}

export interface CompileDeps {
  config: Config;
  db: Db;
  repo: PublicRepo;
}

function compileTargets(row: PublicLinkRow, finish: Finish): Targeting | null {
  const pairs = (text: string, key: string, rule: string, normalize = (name: string) => name) =>
    jsonArray(text).flatMap((t) => {
      const href = httpHref(str(t.link));
      const name = normalize(str(t[key]).trim().toLowerCase());
      return href && name ? [[name, { destination: finish(href, str(t.link)), rule: sharedLabel(`${rule}:${name}`) }] as [string, Target]] : [];
    });
  const devices = pairs(row.device_targets, 'device', 'device');
  const languages = pairs(row.language_targets, 'language', 'language', normalizeLanguage);
  const locations = pairs(row.geo_targets, 'location', 'geo');
  if (devices.length + languages.length + locations.length === 0) return null;
  const primaries = new Map<string, Target>();
  // Region-less codes first, so `fr` beats `fr-ca` for a visitor who asks for `fr-be`.
  for (const [code, d] of [...languages].sort((a, b) => Number(a[0].includes('-')) - Number(b[0].includes('-')))) {
    const primary = code.split('-')[0]!;
    if (!primaries.has(primary)) primaries.set(primary, d);
  }
  const firstWins = (list: Array<[string, Target]>) => new Map([...list].reverse());
  return {
    devices: devices.length ? devices : null,
    languages: languages.length ? firstWins(languages) : null,
    primaries: languages.length ? primaries : null,
    locations: locations.length ? firstWins(locations) : null,
  };
}

const KNOWN_TYPES = new Set<string>(LINK_TYPES);

/**
 * Turns a link row into the cached structure; runs once per cache fill, never per visit. Synchronous for
 * a link that needs nothing but its row (a direct link without pixels: nearly every link), so a cache
 * miss on SQLite is answered in the same turn as its read.
 */
export function compileLink(deps: CompileDeps, row: PublicLinkRow, domain: DomainRef | null): MaybePromise<CompiledLink | null> {
  const several = row.fallback ? fallbackDestinations(row) : null;
  if (several) return brokenDestinations(deps.db, 'link', row.id, several).then((broken) => compileWith(deps, row, domain, broken));
  return compileWith(deps, row, domain, null);
}

function compileWith(deps: CompileDeps, row: PublicLinkRow, domain: DomainRef | null, broken: Set<string> | null): MaybePromise<CompiledLink | null> {
  const link = fromRow(deps, row, domain, broken);
  if (!link) return null;
  return link.type === 'direct' && !row.has_pixels && link.routing?.cap == null ? link : withPages(deps, row, link);
}

function fromRow(deps: CompileDeps, row: PublicLinkRow, domain: DomainRef | null, broken: Set<string> | null): CompiledLink | null {
  const long = httpHref(row.long_url);
  if (!long) return null;
  const finish = finisher(row, broken);
  const type = (KNOWN_TYPES.has(row.type) ? row.type : 'direct') as LinkType;
  const expiresAt = row.expiry ? (parseTimestamp(row.expiry)?.getTime() ?? null) : null;
  const meta = { title: row.meta_title || row.title, description: row.meta_description || row.description, image: httpHref(row.meta_image) ?? '' };
  const url = shortUrl(deps.config, domain, row.alias);
  return linkOf(
    row.id,
    row.user_id,
    row.alias,
    url,
    type,
    finish(long, row.long_url),
    expiresAt,
    row.password_hash || null,
    compileTargets(row, finish),
    meta,
    compileRouting(row.routing, finish),
  );
}

/**
 * The one place a CompiledLink is made (from a row here, from the resident index in link-index.ts), so
 * every link the redirect path sees has one hidden class and its property reads stay monomorphic.
 * Positional: it runs per indexed redirect, where an options object would be one more allocation.
 */
export function linkOf(
  id: number,
  owner: number,
  alias: string,
  url: string,
  type: LinkType,
  destination: string,
  expiresAt: number | null,
  passwordHash: string | null,
  targeting: Targeting | null,
  meta: CompiledLink['meta'],
  routing: RoutingPlan | null,
): CompiledLink {
  return {
    kind: 'link',
    id,
    owner,
    alias,
    shortUrl: url,
    secure: url.startsWith('https:'),
    type,
    destination,
    expiresAt,
    passwordHash,
    targeting,
    routing,
    meta,
    unframeable: null,
    pixels: null,
    splash: null,
    overlay: null,
  };
}

/** What takes reads of its own: splash and overlay pages, pixels, and the check of framed destinations. */
async function withPages(deps: CompileDeps, row: PublicLinkRow, link: CompiledLink): Promise<CompiledLink> {
  if (link.type === 'splash' && row.splash_id) link.splash = ownPage(row, await accountPages.splashPage(deps.db, row.splash_id));
  if (link.type === 'overlay') {
    link.overlay = row.overlay_id ? ownPage(row, await accountPages.overlay(deps.db, row.overlay_id)) : null;
    // A call-to-action page that is gone still lets visitors reach the destination.
    if (!link.overlay) link.type = 'frame';
  }
  if (link.type === 'frame' || link.type === 'overlay') {
    link.unframeable = await unframeable(deps, [link.destination, ...allTargets(link.targeting), ...routedTargets(link.routing)]);
  }
  if (row.has_pixels) link.pixels = bundlePixels(await deps.repo.pixels(row.id));
  // A capped link starts from the clicks stored by every node (resolver.ts keeps it cached only briefly).
  if (link.routing?.cap) link.routing.cap.used = Number((await deps.repo.clicks(row.id))?.clicks ?? 0);
  return link;
}

/** Only the link owner's own splash or overlay page is ever shown on their link. */
function ownPage<T extends { user_id: number }>(row: PublicLinkRow, page: T | undefined): T | null {
  return page && page.user_id === row.user_id ? page : null;
}

function allTargets(t: Targeting | null): string[] {
  if (!t) return [];
  return [...(t.devices ?? []).map(([, d]) => d), ...(t.languages?.values() ?? []), ...(t.locations?.values() ?? [])].map((d) => d.destination);
}

function routedTargets(plan: RoutingPlan | null): string[] {
  return plan ? plan.destinations : [];
}

/** Framing our own API, docs or admin pages would lend them our page (clickjacking): those are linked instead. */
async function unframeable(deps: CompileDeps, destinations: string[]): Promise<Set<string> | null> {
  const refused = new Set<string>();
  for (const destination of destinations) {
    const url = new URL(destination);
    if (!isReserved(firstSegment(url.pathname))) continue;
    // Every spelling of our own hosts (`redirectory.test.`, `:443`) is the same site to a browser.
    const host = hostKey(url);
    if (host === null || host === deps.config.DEFAULT_HOST || (await deps.repo.domain(host))) refused.add(destination);
  }
  return refused.size ? refused : null;
}

function firstSegment(pathname: string): string {
  const segment = pathname.split('/').find(Boolean) ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
