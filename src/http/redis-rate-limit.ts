import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { MemoryRateLimitStore, type RateLimitStore, type WindowState } from './rate-limit.js';
import { cacheKeys } from '../lib/cache-keys.js';

/**
 * Counts and arms the expiry in one step, so concurrent hits from any number of nodes each see a
 * distinct count and no window key can outlive its window. ARGV[1]: milliseconds the key must live;
 * ARGV[2]: the units counted.
 */
const HIT_SCRIPT = `
local units = tonumber(ARGV[2])
local count = redis.call('INCRBY', KEYS[1], units)
if count == units then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** Lowers a window that still exists by ARGV[1], never below 0; a missing window stays missing (no key without expiry). */
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECRBY', KEYS[1], math.min(count, tonumber(ARGV[1]))) end
return count`;

/** Slack after the window ends before Redis drops the key; covers clock differences between nodes. */
const EXPIRY_SLACK_MS = 5000;

type ScriptedRedis = Redis & {
  rateLimitHit(key: string, ttlMs: number, units: number): Promise<number>;
  rateLimitRelease(key: string, units: number): Promise<number>;
};

/**
 * Rate-limit windows shared by every node through Redis: one budget per key across the cluster.
 * Windows are aligned to the epoch by each node's clock, so nodes need synchronised clocks (NTP).
 * When Redis fails, the node falls back to counting in its own memory rather than refusing or
 * stalling API traffic; it logs the switch both ways.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: ScriptedRedis;
  private readonly fallback = new MemoryRateLimitStore();
  private degraded = false;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {
    if (!('rateLimitHit' in redis)) redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    if (!('rateLimitRelease' in redis)) redis.defineCommand('rateLimitRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  async hit(bucket: string, windowMs: number, now: number, units = 1): Promise<WindowState> {
    const start = Math.floor(now / windowMs) * windowMs;
    const resetAt = start + windowMs;
    try {
      const count = await this.redis.rateLimitHit(this.prefix + cacheKeys.rateLimit(bucket, start), resetAt - now + EXPIRY_SLACK_MS, units);
      this.setDegraded(false);
      return { count: Number(count), resetAt };
    } catch (err) {
      this.setDegraded(true, err);
      return this.fallback.hit(bucket, windowMs, now, units);
    }
  }

  async release(bucket: string, windowMs: number, now: number, units = 1): Promise<void> {
    const start = Math.floor(now / windowMs) * windowMs;
    try {
      await this.redis.rateLimitRelease(this.prefix + cacheKeys.rateLimit(bucket, start), units);
    } catch (err) {
      this.setDegraded(true, err);
      await this.fallback.release(bucket, windowMs, now, units);
    }
  }

  private setDegraded(degraded: boolean, err?: unknown): void {
    if (degraded === this.degraded) return;
    this.degraded = degraded;
    if (degraded) this.log.warn({ err }, 'Redis unavailable: rate limits are counted per node until it returns');
    else this.log.info('Redis is back: rate limits are shared again');
  }

  /** The connection belongs to the context, which closes it. */
  async close(): Promise<void> {
    await this.fallback.close();
  }
}
