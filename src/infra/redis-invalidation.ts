import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { LocalInvalidation, type Invalidation, type InvalidationListener } from './invalidation.js';
import { closeRedis, duplicateRedis } from './redis.js';

/**
 * Invalidation across nodes over Redis pub/sub. A key published here reaches this node's listeners at
 * once (before the writer's response leaves) and every other node's within the pub/sub round trip.
 * Messages are `<nodeId> <key>`; a node ignores its own echo since it already delivered locally.
 *
 * Pub/sub is fire-and-forget: a node whose subscriber is disconnected misses what was published
 * meanwhile and converges only when its cached entries expire (LINK_CACHE_TTL_S). The outage is logged.
 */
export class RedisInvalidation implements Invalidation {
  private readonly local = new LocalInvalidation();
  private readonly nodeId = randomUUID();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly log: Logger,
  ) {
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) this.receive(message);
    });
  }

  /** Subscribes on a connection of its own; `publisher` is the node's shared command connection. */
  static async start(publisher: Redis, prefix: string, log: Logger): Promise<RedisInvalidation> {
    const subscriber = await duplicateRedis(publisher, log, 'invalidation subscriber');
    const channel = `${prefix}invalidate`;
    try {
      await subscriber.subscribe(channel);
    } catch (err) {
      subscriber.disconnect();
      throw err;
    }
    return new RedisInvalidation(publisher, subscriber, channel, log);
  }

  publish(key: string): void {
    this.local.deliver(key);
    this.publisher.publish(this.channel, `${this.nodeId} ${key}`).catch((err: unknown) => {
      this.log.error({ err, key }, 'could not publish a cache invalidation; other nodes serve it until it expires');
    });
  }

  subscribe(listener: InvalidationListener): () => void {
    return this.local.subscribe(listener);
  }

  private receive(message: string): void {
    const space = message.indexOf(' ');
    if (space < 0 || message.slice(0, space) === this.nodeId) return;
    this.local.deliver(message.slice(space + 1));
  }

  async close(): Promise<void> {
    await closeRedis(this.subscriber);
  }
}
