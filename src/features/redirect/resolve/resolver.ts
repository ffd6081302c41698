import type { AppContext } from '../../../context.js';
import type { Config } from '../../../config.js';
import { cacheKeys } from '../../../lib/cache-keys.js';
import type { RenderedPage } from '../../../lib/html.js';
import { andThen, type MaybePromise } from '../../../lib/maybe-promise.js';
import { httpHref } from '../../../lib/urls.js';
import { compileLink, type CompiledLink, type CompileDeps } from './compile.js';
import { ExpiringCache, memoize } from '../../../lib/bounded-cache.js';
import { normalizeHost } from '../../../lib/hosts.js';
import { Doorkeeper } from '../../../lib/doorkeeper.js';
import { bioPage } from '../pages/site.js';
import { publicRepo } from './repo.js';
import { LinkIndex } from './link-index.js';
import { bioPageByAlias } from '../../custom-pages/public.js';
import { LINK_CACHE_HIT, LINK_CACHE_MISS } from '../../../infra/metrics/counters.js';

/** A host we serve: the default domain or a branded one, with its root and 404 redirects. */
export interface Site {
  host: string;
  domainId: number;
  domain: { scheme: string; host: string } | null;
  /** Where `/` and unknown aliases go; "" shows our own page. */
  root: string;
  notFound: string;
  /** A link's key in the resolver's caches is this plus its alias: `cacheKeys.linkPrefix(host)`, or `DEFAULT_PREFIX`. */
  linkPrefix: string;
  /** The one "no such alias" answer of this site, shared so a miss allocates nothing. */
  missing: Missing;
}

export interface Missing {
  kind: 'missing';
  site: Site;
}
export interface BioEntry {
  kind: 'bio';
  page: RenderedPage;
}
export type Entry = CompiledLink | BioEntry;
export type Resolution = Entry | Missing;
/** What a Host header + alias resolve to: every Host is served, as a branded domain or as the default one. */
export type Lookup = Resolution;

/** Unknown aliases are cached briefly: long enough to absorb floods, short enough that new links appear. */
const NEGATIVE_TTL_MS = 5_000;
/** A capped link is read again this often, so each node sees the others' stored clicks within about one click batch. */
const CAPPED_TTL_MS = 1_000;
const MAX_SITES = 10_000;
/** Host header spellings remembered with their canonical key; longer ones are no host of ours (lib/hosts.ts). */
const MAX_HOST_SPELLING = 300;

/**
 * Host + alias → what to serve, through a bounded LRU of compiled links (plus short-lived negative
 * entries). Plain functions of no framework: a cache hit answers synchronously, a miss with a promise.
 * Writers publish the keys they change (cacheKeys.link / cacheKeys.domainRoot); we drop those keys.
 */
export class Resolver {
  private readonly links: ExpiringCache<Entry>;
  private readonly missing: ExpiringCache<Missing>;
  /** Canonical host key (cacheKeys.domainRoot) → its branded site, or the default site for a host that is none. */
  private readonly sites = new ExpiringCache<Site>(MAX_SITES);
  /** Host header as sent → its cache key: normalizing (a URL parse) once per spelling, not per request. */
  private readonly siteKey = memoize((host) => cacheKeys.domainRoot(normalizeHost(host) ?? ''), MAX_SITES, MAX_HOST_SPELLING);
  private readonly doorkeeper: Doorkeeper;
  /** Direct links resident in memory, filled after start (link-index.ts); checked before the cache. */
  private readonly index: LinkIndex;
  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly deps: CompileDeps;
  private readonly ttlMs: number;
  private readonly defaultSite: Site;
  private readonly defaultKey: string;
  /** `cacheKeys.linkPrefix` of the default host: the published keys that name a default-site link. */
  private readonly defaultLinkPrefix: string;
  /** Bumped by every invalidation: a load that overlapped one is served but not cached. */
  private generation = 0;
  private readonly unsubscribe: () => void;
  /** [hits, misses] of link lookups, for /metrics (infra/metrics/counters.ts). */
  private readonly cacheCounts: Float64Array;

  constructor(ctx: AppContext) {
    this.cacheCounts = ctx.counters.linkCache;
    this.deps = { config: ctx.config, db: ctx.db, repo: publicRepo(ctx.dbHandle) };
    this.ttlMs = ctx.config.LINK_CACHE_TTL_S * 1000;
    this.links = new ExpiringCache(ctx.config.LINK_CACHE_SIZE);
    this.doorkeeper = new Doorkeeper(Math.max(ctx.config.LINK_CACHE_SIZE, 1_000));
    this.missing = new ExpiringCache(Math.min(ctx.config.LINK_CACHE_SIZE, 50_000));
    this.defaultSite = site(ctx.config.DEFAULT_HOST, 0, null, '', '', DEFAULT_PREFIX);
    this.defaultLinkPrefix = cacheKeys.linkPrefix(ctx.config.DEFAULT_HOST);
    this.defaultKey = cacheKeys.domainRoot(ctx.config.DEFAULT_HOST);
    this.index = new LinkIndex(this.deps, linkIndexSize(ctx.config), this.ttlMs, ctx.log);
    this.unsubscribe = ctx.invalidation.subscribe((key) => this.drop(key));
  }

  /** Begins filling the resident index in the background (the server listens; the cache and database serve meanwhile). */
  startIndex(): void {
    this.index.start();
  }

  /** Stops listening for invalidations (the app closes); the entries go with the resolver. */
  close(): void {
    this.unsubscribe();
    this.index.close();
  }

  /**
   * `host` as sent (any spelling, with or without a port): the branded domain it names, else the default
   * domain, as Shlink does — so a node reached by its own address, a container name or a proxy that does
   * not pass the public Host still serves the default domain's links.
   */
  site(host: string, now = Date.now()): MaybePromise<Site> {
    if (host === this.defaultSite.host) return this.defaultSite;
    const key = this.siteKey(host);
    if (key === this.defaultKey || key === NO_HOST_KEY) return this.defaultSite;
    const cached = this.sites.get(key, now);
    if (cached !== undefined) return cached;
    return this.once(key, () => this.loadSite(key));
  }

  /** Host header + alias → what to serve; synchronous when the host is known and the link cached, or read from SQLite (check `instanceof Promise`). */
  lookup(host: string, alias: string, now = Date.now()): MaybePromise<Lookup> {
    const site = this.site(host, now);
    if (site instanceof Promise) return site.then((s) => this.resolve(s, alias, now));
    return this.resolve(site, alias, now);
  }

  /** Synchronous on a cache hit, and on SQLite on a miss of a link that needs only its row. */
  resolve(site: Site, alias: string, now = Date.now()): MaybePromise<Resolution> {
    const key = site.linkPrefix + alias;
    const hit = this.links.get(key, now);
    if (hit !== undefined) {
      this.cacheCounts[LINK_CACHE_HIT]!++;
      return hit;
    }
    // The resident index rebuilds a link per read: a link read again is kept built in the cache.
    const indexed = this.index.get(site.host, site.domain, alias);
    if (indexed !== undefined) {
      this.cacheCounts[LINK_CACHE_HIT]!++;
      if (this.doorkeeper.seenBefore(key)) this.links.set(key, indexed, this.ttlMs, now);
      return indexed;
    }
    if (this.missing.get(key, now) !== undefined) {
      this.cacheCounts[LINK_CACHE_HIT]!++;
      return site.missing;
    }
    this.cacheCounts[LINK_CACHE_MISS]!++;
    return this.once(key, () => {
      const generation = this.generation;
      return andThen(this.findEntry(site, alias), (entry) => this.store(site, key, entry, generation));
    });
  }

  /** Concurrent misses of one key share one database read; a read answered synchronously has no others. */
  private once<T>(key: string, load: () => MaybePromise<T>): MaybePromise<T> {
    const pending = this.loading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const loaded = load();
    if (!(loaded instanceof Promise)) return loaded;
    const promise = loaded.finally(() => {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    });
    this.loading.set(key, promise);
    return promise;
  }

  /** A host that names no branded domain is cached as the default site, so odd hosts cost one read each per TTL. */
  private async loadSite(key: string): Promise<Site> {
    const generation = this.generation;
    const row = await this.deps.repo.domain(key.slice(NO_HOST_KEY.length));
    const found = row
      ? site(row.host, row.id, { scheme: row.scheme, host: row.host }, httpHref(row.redirect_root) ?? '', httpHref(row.redirect_404) ?? '')
      : this.defaultSite;
    if (generation === this.generation) this.sites.set(key, found, this.ttlMs, Date.now());
    return found;
  }

  /** Caches what a read found, unless an invalidation came in while it was under way (`generation`). */
  private store(site: Site, key: string, entry: Entry | null, generation: number): Resolution {
    if (generation === this.generation) {
      if (!entry) this.missing.set(key, site.missing, Math.min(this.ttlMs, NEGATIVE_TTL_MS), Date.now());
      // From the second request on; a capped link at once, since its cached copy carries this node's count.
      else if (isCapped(entry) || this.doorkeeper.seenBefore(key)) this.links.set(key, entry, ttlOf(entry, this.ttlMs), Date.now());
    }
    return entry ?? site.missing;
  }

  private findEntry(site: Site, alias: string): MaybePromise<Entry | null> {
    return andThen(this.deps.repo.link(site.domainId, alias), (row) => {
      if (row) return compileLink(this.deps, row, site.domain);
      if (site.domainId !== 0) return null;
      return bioPageByAlias(this.deps.db, alias).then((bio): Entry | null => (bio ? { kind: 'bio', page: bioPage(bio) } : null));
    });
  }

  private drop(key: string): void {
    this.generation++;
    this.index.drop(key);
    const own = key.startsWith(this.defaultLinkPrefix) ? DEFAULT_PREFIX + key.slice(this.defaultLinkPrefix.length) : key;
    this.links.delete(own);
    this.missing.delete(own);
    this.sites.delete(key);
    this.loading.delete(own);
  }
}

/**
 * Links kept resident: none where nodes do not hear each other's invalidations (PostgreSQL without Redis
 * converges by a TTL of seconds, too short to pass over every link), nor when nothing may be cached.
 */
function linkIndexSize(config: Config): number {
  if ((config.DIALECT === 'postgres' && !config.REDIS_URL) || config.LINK_CACHE_TTL_S === 0) return 0;
  return config.LINK_INDEX_MAX;
}

const isCapped = (entry: Entry) => entry.kind === 'link' && entry.routing?.cap != null;

function ttlOf(entry: Entry, ttlMs: number): number {
  return isCapped(entry) ? Math.min(ttlMs, CAPPED_TTL_MS) : ttlMs;
}

/**
 * The default site's link key prefix: most redirects are of default-site links, and `/` + a short alias is a
 * flat string of a few characters, where `l:host/` + alias is a concatenation flattened and hashed whole on
 * every lookup (docs/performance.md#short-link-keys). No other key starts with `/`.
 */
const DEFAULT_PREFIX = '/';

function site(host: string, domainId: number, domain: Site['domain'], root: string, notFound: string, linkPrefix = cacheKeys.linkPrefix(host)): Site {
  const s = { host, domainId, domain, root, notFound, linkPrefix } as Site;
  s.missing = { kind: 'missing', site: s };
  return s;
}

/** The key of a Host header that is no host at all (lib/hosts.ts), and the prefix of every site key. */
const NO_HOST_KEY = cacheKeys.domainRoot('');
