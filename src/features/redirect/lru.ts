interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * At most `max` entries, forgetting the least recently used half at a time (two generations, as
 * BoundedCache: evicting the oldest key of one Map walks over every slot deleted before it), and treating
 * entries older than their time-to-live as missing, so they are re-read.
 */
export class LruCache<V> {
  private current = new Map<string, Entry<V>>();
  private previous = new Map<string, Entry<V>>();
  private readonly half: number;

  constructor(private readonly max: number) {
    this.half = Math.max(1, Math.ceil(max / 2));
  }

  /** The value, or undefined when absent or stale; `now` comes from the caller so one visit reads the clock once. */
  get(key: string, now: number): V | undefined {
    let entry = this.current.get(key);
    if (entry === undefined) {
      entry = this.previous.get(key);
      if (entry === undefined) return undefined;
      this.previous.delete(key);
      this.put(key, entry); // used again: survives the next turnover
    }
    if (entry.expiresAt <= now) {
      this.current.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number, now: number): void {
    if (this.max <= 0 || ttlMs <= 0) return;
    this.previous.delete(key);
    this.put(key, { value, expiresAt: now + ttlMs });
  }

  delete(key: string): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }

  private put(key: string, entry: Entry<V>): void {
    if (this.current.size >= this.half && !this.current.has(key)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, entry);
  }
}
