/**
 * A map of at most `max` entries (and, optionally, of at most `maxWeight` in total) that forgets the
 * least recently used half at a time: every memo, counter and cache whose keys an attacker (or a
 * million links) could multiply without end. Two generations instead of evicting the oldest key of one
 * Map, whose eviction slows down as deleted slots pile up (docs/performance.md#two-generations).
 */
export interface BoundedCacheOptions<K, V> {
  /** Total weight kept (bytes, say), as measured by `weigh`; an entry heavier than half of it is not kept. */
  maxWeight?: number;
  weigh?: (value: V) => number;
  /** Told of each entry a turnover forgets (not of those deleted), to drop what refers to it. */
  onEvict?: (key: K, value: V) => void;
}

export class BoundedCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private currentWeight = 0;
  private previousWeight = 0;
  private readonly half: number;
  private readonly halfWeight: number;

  constructor(
    max: number,
    private readonly options: BoundedCacheOptions<K, V> = {},
  ) {
    this.half = Math.max(1, Math.ceil(max / 2));
    this.halfWeight = (options.maxWeight ?? Infinity) / 2;
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old); // used again: survives the next turnover
    return old;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.halfWeight) return;
    this.delete(key);
    if (this.current.size >= this.half || this.currentWeight + weight > this.halfWeight) this.turnOver();
    this.current.set(key, value);
    this.currentWeight += weight;
  }

  delete(key: K): void {
    const value = this.current.get(key);
    if (value !== undefined) {
      this.current.delete(key);
      this.currentWeight -= this.weigh(value);
    }
    const old = this.previous.get(key);
    if (old !== undefined) {
      this.previous.delete(key);
      this.previousWeight -= this.weigh(old);
    }
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** Every key, the most recent generation first (a copy: deleting while iterating is safe). */
  keys(): K[] {
    return [...this.current.keys(), ...this.previous.keys()];
  }

  clear(): void {
    this.current = new Map();
    this.previous = new Map();
    this.currentWeight = this.previousWeight = 0;
  }

  private turnOver(): void {
    const forgotten = this.previous;
    this.previous = this.current;
    this.previousWeight = this.currentWeight;
    this.current = new Map();
    this.currentWeight = 0;
    const { onEvict } = this.options;
    if (onEvict) for (const [key, value] of forgotten) onEvict(key, value);
  }

  private weigh(value: V): number {
    return this.options.weigh?.(value) ?? 0;
  }
}

/** Memoizes a function of one string in a BoundedCache; keys longer than maxKey are computed, not kept. */
export function memoize<V>(fn: (key: string) => V, max: number, maxKey = 512): (key: string) => V {
  const cache = new BoundedCache<string, V>(max);
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = fn(key);
      if (key.length <= maxKey) cache.set(key, value);
    }
    return value;
  };
}

interface Expiring<V> {
  value: V;
  expiresAt: number;
}

/**
 * A BoundedCache whose entries also expire: older than their time-to-live they count as missing and
 * are re-read (a backstop for nodes that miss an invalidation). `max` 0 keeps nothing.
 */
export class ExpiringCache<V> {
  private readonly entries: BoundedCache<string, Expiring<V>>;

  constructor(
    private readonly max: number,
    options: { maxWeight?: number; weigh?: (value: V) => number } = {},
  ) {
    const { weigh } = options;
    this.entries = new BoundedCache(max, { maxWeight: options.maxWeight, weigh: weigh && ((entry) => weigh(entry.value)) });
  }

  /** The value, or undefined when absent or stale; `now` comes from the caller so one visit reads the clock once. */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number, now = Date.now()): void {
    if (this.max > 0 && ttlMs > 0) this.entries.set(key, { value, expiresAt: now + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(match: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (match(key)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
