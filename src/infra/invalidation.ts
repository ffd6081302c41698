/**
 * Cache invalidation: the service that writes publishes the cache key it changed; every cache that
 * holds that key drops it. Locally this is a plain fan-out; with REDIS_URL the same keys also travel
 * to the other nodes (see src/infra/redis-invalidation.ts).
 */
export type InvalidationListener = (key: string) => void;

export interface Invalidation {
  publish(key: string): void;
  /** Returns the unsubscribe: a cache that closes before the process (a feature's, on app close) lets go of it. */
  subscribe(listener: InvalidationListener): () => void;
  close(): Promise<void>;
}

export class LocalInvalidation implements Invalidation {
  private readonly listeners: InvalidationListener[] = [];

  publish(key: string): void {
    this.deliver(key);
  }

  subscribe(listener: InvalidationListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Delivers to this node's listeners only (used by transports that receive from other nodes). */
  deliver(key: string): void {
    for (const listener of this.listeners) listener(key);
  }

  async close(): Promise<void> {}
}
