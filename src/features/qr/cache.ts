import fp from 'fastify-plugin';
import type { AppContext } from '../../context.js';
import type { FeatureOptions } from '../../http/types.js';
import { ExpiringCache } from '../../lib/bounded-cache.js';
import { cacheKeys } from '../../lib/cache-keys.js';

/** What the scan address needs: null caches "no such link code" so random slugs do not reach the database. */
export interface ScanTarget {
  id: number;
  owner: number;
  destination: string;
}

export interface QrImage {
  body: Buffer;
  type: string;
}

export interface QrCaches {
  scans: ExpiringCache<ScanTarget | null>;
  images: ExpiringCache<QrImage>;
  /** Renders under way, by image key. */
  rendering: Map<string, Promise<QrImage | null>>;
  /** The last PNG render queued: they run one at a time (see inTurn). */
  queue: Promise<unknown>;
  /** LINK_CACHE_TTL_S: nodes without a shared invalidation channel still converge. */
  ttlMs: number;
  /**
   * Bumped by every QR invalidation. A reader notes it before reading the database and caches its
   * result only if it is unchanged, so an update landing mid-read cannot leave a stale entry behind.
   */
  epoch: number;
  /** Stops listening for invalidations (the app closes). */
  close(): void;
}

/** Image entries are keyed `q:{slug} {format} {size}` so one invalidation key drops every variant. */
export const imageKey = (slug: string, format: string, size: number) => `${cacheKeys.qr(slug)} ${format} ${size}`;

/** The caches of one app, subscribed to the context's invalidation channel until closed. */
export function createQrCaches(ctx: AppContext): QrCaches {
  const ttlMs = ctx.config.LINK_CACHE_TTL_S * 1000;
  const caches: QrCaches = {
    scans: new ExpiringCache(10_000),
    images: new ExpiringCache(512, { maxWeight: 32 * 1024 * 1024, weigh: (image) => image.body.length }),
    rendering: new Map(),
    queue: Promise.resolve(),
    ttlMs,
    epoch: 0,
    close: () => unsubscribe(),
  };
  const unsubscribe = ctx.invalidation.subscribe((key) => {
    if (!key.startsWith(cacheKeys.qr(''))) return;
    caches.epoch++;
    caches.scans.delete(key);
    caches.images.deleteWhere((k) => k.startsWith(`${key} `));
  });
  return caches;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The QR images and scan targets of this app (qrCachesPlugin). */
    qrCaches: QrCaches;
  }
}

/** Decorates the app with its QR caches and closes them with it; not encapsulated, so the app (and a test) can see them. */
export const qrCachesPlugin = fp<FeatureOptions>(
  async (app, { ctx }) => {
    const caches = createQrCaches(ctx);
    app.decorate('qrCaches', caches);
    app.addHook('onClose', async () => caches.close());
  },
  { name: 'qr-caches' },
);

/**
 * Runs PNG renders one after another: each uses libvips threads, and a burst of cache misses run at once
 * would take every core from the requests around them; queued, they finish as soon and /health stays quick.
 */
export function inTurn<T>(caches: QrCaches, render: () => Promise<T>): Promise<T> {
  const run = caches.queue.then(render, render);
  caches.queue = run.catch(() => undefined);
  return run;
}
