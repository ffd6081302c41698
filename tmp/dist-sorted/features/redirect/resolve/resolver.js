import { cacheKeys } from '../../../lib/cache-keys.js';
import { andThen } from '../../../lib/maybe-promise.js';
import { httpHref } from '../../../lib/urls.js';
import { compileLink } from './compile.js';
import { ExpiringCache, memoize } from '../../../lib/bounded-cache.js';
import { normalizeHost } from '../../../lib/hosts.js';
import { Doorkeeper } from '../../../lib/doorkeeper.js';
import { bioPage } from '../pages/site.js';
import { publicRepo } from './repo.js';
import { bioPageByAlias } from '../../custom-pages/public.js';
/** Unknown aliases are cached briefly: long enough to absorb floods, short enough that new links appear. */
const NEGATIVE_TTL_MS = 5_000;
const MAX_SITES = 10_000;
/** Host header spellings remembered with their canonical key; longer ones are no host of ours (lib/hosts.ts). */
const MAX_HOST_SPELLING = 300;
/**
 * Host + alias → what to serve, through a bounded LRU of compiled links (plus short-lived negative
 * entries). Plain functions of no framework: a cache hit answers synchronously, a miss with a promise.
 * Writers publish the keys they change (cacheKeys.link / cacheKeys.domainRoot); we drop those keys.
 */
export class Resolver {
    links;
    missing;
    /** Canonical host key (cacheKeys.domainRoot) → its branded site, or the default site for a host that is none. */
    sites = new ExpiringCache(MAX_SITES);
    /** Host header as sent → its cache key: normalizing (a URL parse) once per spelling, not per request. */
    siteKey = memoize((host) => cacheKeys.domainRoot(normalizeHost(host) ?? ''), MAX_SITES, MAX_HOST_SPELLING);
    doorkeeper;
    loading = new Map();
    deps;
    ttlMs;
    defaultSite;
    defaultKey;
    /** Bumped by every invalidation: a load that overlapped one is served but not cached. */
    generation = 0;
    constructor(ctx) {
        this.deps = { config: ctx.config, db: ctx.db, repo: publicRepo(ctx.dbHandle) };
        this.ttlMs = ctx.config.LINK_CACHE_TTL_S * 1000;
        this.links = new ExpiringCache(ctx.config.LINK_CACHE_SIZE);
        this.doorkeeper = new Doorkeeper(Math.max(ctx.config.LINK_CACHE_SIZE, 1_000));
        this.missing = new ExpiringCache(Math.min(ctx.config.LINK_CACHE_SIZE, 50_000));
        this.defaultSite = site(ctx.config.DEFAULT_HOST, 0, null, '', '');
        this.defaultKey = cacheKeys.domainRoot(ctx.config.DEFAULT_HOST);
        ctx.invalidation.subscribe((key) => this.drop(key));
    }
    /**
     * `host` as sent (any spelling, with or without a port): the branded domain it names, else the default
     * domain, as Shlink does — so a node reached by its own address, a container name or a proxy that does
     * not pass the public Host still serves the default domain's links.
     */
    site(host, now = Date.now()) {
        if (host === this.defaultSite.host)
            return this.defaultSite;
        const key = this.siteKey(host);
        if (key === this.defaultKey || key === NO_HOST_KEY)
            return this.defaultSite;
        const cached = this.sites.get(key, now);
        if (cached !== undefined)
            return cached;
        return this.once(key, () => this.loadSite(key));
    }
    /** Host header + alias → what to serve; synchronous when the host is known and the link cached, or read from SQLite (check `instanceof Promise`). */
    lookup(host, alias, now = Date.now()) {
        const site = this.site(host, now);
        if (site instanceof Promise)
            return site.then((s) => this.resolve(s, alias, now));
        return this.resolve(site, alias, now);
    }
    /** Synchronous on a cache hit, and on SQLite on a miss of a link that needs only its row. */
    resolve(site, alias, now = Date.now()) {
        const key = cacheKeys.link(site.host, alias);
        const hit = this.links.get(key, now);
        if (hit !== undefined)
            return hit;
        if (this.missing.get(key, now) !== undefined)
            return site.missing;
        return this.once(key, () => {
            const generation = this.generation;
            return andThen(this.findEntry(site, alias), (entry) => this.store(site, key, entry, generation));
        });
    }
    /** Concurrent misses of one key share one database read; a read answered synchronously has no others. */
    once(key, load) {
        const pending = this.loading.get(key);
        if (pending)
            return pending;
        const loaded = load();
        if (!(loaded instanceof Promise))
            return loaded;
        const promise = loaded.finally(() => {
            if (this.loading.get(key) === promise)
                this.loading.delete(key);
        });
        this.loading.set(key, promise);
        return promise;
    }
    /** A host that names no branded domain is cached as the default site, so odd hosts cost one read each per TTL. */
    async loadSite(key) {
        const generation = this.generation;
        const row = await this.deps.repo.domain(key.slice(NO_HOST_KEY.length));
        const found = row
            ? site(row.host, row.id, { scheme: row.scheme, host: row.host }, httpHref(row.redirect_root) ?? '', httpHref(row.redirect_404) ?? '')
            : this.defaultSite;
        if (generation === this.generation)
            this.sites.set(key, found, this.ttlMs, Date.now());
        return found;
    }
    /** Caches what a read found, unless an invalidation came in while it was under way (`generation`). */
    store(site, key, entry, generation) {
        if (generation === this.generation) {
            if (!entry)
                this.missing.set(key, site.missing, Math.min(this.ttlMs, NEGATIVE_TTL_MS), Date.now());
            else if (this.doorkeeper.seenBefore(key))
                this.links.set(key, entry, this.ttlMs, Date.now()); // from the second request on
        }
        return entry ?? site.missing;
    }
    findEntry(site, alias) {
        return andThen(this.deps.repo.link(site.domainId, alias), (row) => {
            if (row)
                return compileLink(this.deps, row, site.domain);
            if (site.domainId !== 0)
                return null;
            return bioPageByAlias(this.deps.db, alias).then((bio) => (bio ? { kind: 'bio', page: bioPage(bio) } : null));
        });
    }
    drop(key) {
        this.generation++;
        this.links.delete(key);
        this.missing.delete(key);
        this.sites.delete(key);
        this.loading.delete(key);
    }
}
function site(host, domainId, domain, root, notFound) {
    const s = { host, domainId, domain, root, notFound };
    s.missing = { kind: 'missing', site: s };
    return s;
}
/** The key of a Host header that is no host at all (lib/hosts.ts), and the prefix of every site key. */
const NO_HOST_KEY = cacheKeys.domainRoot('');
const resolvers = new WeakMap();
/** One resolver (one cache, one subscription) per context, shared by the Fastify routes and any lean front handler. */
export function resolverFor(ctx) {
    let resolver = resolvers.get(ctx);
    if (!resolver)
        resolvers.set(ctx, (resolver = new Resolver(ctx)));
    return resolver;
}
//# sourceMappingURL=resolver.js.map