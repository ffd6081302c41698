import type { AppContext } from '../../context.js';
import { cacheKeys } from '../../lib/cache-keys.js';

interface Entry<V> {
  value: V;
  expiresAt: number;
  weight: number;
}

/**
 * Least-recently-used map bounded by entry count and total weight (bytes for images), with a TTL so
 * nodes without a shared invalidation channel still converge.
 */
export class LruCache<V> {
  private readonly map = new Map<string, Entry<V>>();
  private weight = 0;

  constructor(private readonly limits: { entries: number; weight: number; ttlMs: number }) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.map.delete(key);
    if (entry.expiresAt <= now) {
      this.weight -= entry.weight;
      return undefined;
    }
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, weight = 1): void {
    if (this.limits.ttlMs <= 0 || weight > this.limits.weight) return;
    this.delete(key);
    this.map.set(key, { value, weight, expiresAt: Date.now() + this.limits.ttlMs });
    this.weight += weight;
    while (this.map.size > this.limits.entries || this.weight > this.limits.weight) {
      this.delete(this.map.keys().next().value as string);
    }
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.weight -= entry.weight;
  }

  deleteWhere(match: (key: string) => boolean): void {
    for (const key of [...this.map.keys()]) if (match(key)) this.delete(key);
  }
}

/** What the scan address needs: null caches "no such link code" so random slugs do not reach the database. */
export interface ScanTarget {
  id: number;
  destination: string;
}

export interface QrImage {
  body: Buffer;
  type: string;
}

export interface QrCaches {
  scans: LruCache<ScanTarget | null>;
  images: LruCache<QrImage>;
  /** Renders under way, by image key. */
  rendering: Map<string, Promise<QrImage | null>>;
  /**
   * Bumped by every QR invalidation. A reader notes it before reading the database and caches its
   * result only if it is unchanged, so an update landing mid-read cannot leave a stale entry behind.
   */
  epoch: number;
}

const byContext = new WeakMap<AppContext, QrCaches>();

/** Image entries are keyed `q:{slug} {format} {size}` so one invalidation key drops every variant. */
export const imageKey = (slug: string, format: string, size: number) => `${cacheKeys.qr(slug)} ${format} ${size}`;

/** The caches of one app context, subscribed to its invalidation channel on first use. */
export function qrCaches(ctx: AppContext): QrCaches {
  const existing = byContext.get(ctx);
  if (existing) return existing;
  const ttlMs = ctx.config.LINK_CACHE_TTL_S * 1000;
  const caches: QrCaches = {
    scans: new LruCache({ entries: 10_000, weight: 10_000, ttlMs }),
    images: new LruCache({ entries: 512, weight: 32 * 1024 * 1024, ttlMs }),
    rendering: new Map(),
    epoch: 0,
  };
  ctx.invalidation.subscribe((key) => {
    if (!key.startsWith(cacheKeys.qr(''))) return;
    caches.epoch++;
    caches.scans.delete(key);
    caches.images.deleteWhere((k) => k.startsWith(`${key} `));
  });
  byContext.set(ctx, caches);
  return caches;
}
