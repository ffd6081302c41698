import { ExpiringCache } from '../../lib/bounded-cache.js';
import { cacheKeys } from '../../lib/cache-keys.js';
const byContext = new WeakMap();
/** Image entries are keyed `q:{slug} {format} {size}` so one invalidation key drops every variant. */
export const imageKey = (slug, format, size) => `${cacheKeys.qr(slug)} ${format} ${size}`;
/** The caches of one app context, subscribed to its invalidation channel on first use. */
export function qrCaches(ctx) {
    const existing = byContext.get(ctx);
    if (existing)
        return existing;
    const ttlMs = ctx.config.LINK_CACHE_TTL_S * 1000;
    const caches = {
        scans: new ExpiringCache(10_000),
        images: new ExpiringCache(512, { maxWeight: 32 * 1024 * 1024, weigh: (image) => image.body.length }),
        rendering: new Map(),
        queue: Promise.resolve(),
        ttlMs,
        epoch: 0,
    };
    ctx.invalidation.subscribe((key) => {
        if (!key.startsWith(cacheKeys.qr('')))
            return;
        caches.epoch++;
        caches.scans.delete(key);
        caches.images.deleteWhere((k) => k.startsWith(`${key} `));
    });
    byContext.set(ctx, caches);
    return caches;
}
/**
 * Runs PNG renders one after another: each uses libvips threads, and a burst of cache misses run at once
 * would take every core from the requests around them; queued, they finish as soon and /health stays quick.
 */
export function inTurn(caches, render) {
    const run = caches.queue.then(render, render);
    caches.queue = run.catch(() => undefined);
    return run;
}
//# sourceMappingURL=cache.js.map