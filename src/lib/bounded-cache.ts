/**
 * A map of at most `max` entries that forgets the least recently used half at a time: memoizes per user
 * agent, IP or visitor on hot paths, where the same few keys recur but an attacker (or a million links)
 * could send endless distinct ones. Two generations instead of evicting the oldest key of one Map:
 * `map.keys().next()` walks over every slot deleted before it, so FIFO eviction from a full Map grew
 * slower with each eviction (13 us per click in the click writer at 1M links).
 */
export class BoundedCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private readonly half: number;

  constructor(max: number) {
    this.half = Math.max(1, Math.ceil(max / 2));
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old); // used again: survives the next turnover
    return old;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.half) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
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
