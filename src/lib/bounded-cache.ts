/**
 * A Map that forgets its oldest entry past `max`: memoizes per user agent or IP on the hot path,
 * where the same few keys recur but an attacker could send endless distinct ones.
 */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as K);
    this.map.set(key, value);
  }

  clear(): void {
    this.map.clear();
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
