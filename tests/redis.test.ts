import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { connectRedis } from '../src/infra/redis.js';
import { RedisInvalidation } from '../src/infra/redis-invalidation.js';
import { RedisRateLimitStore } from '../src/http/redis-rate-limit.js';
import { deleteRedisPrefix, TEST_REDIS_URL, uniqueName } from './helpers/services.js';
import { startServer } from './helpers/server.js';

// Runs on a PostgreSQL + Redis run (REDIS_URL) or with CLUSTER=1 against TEST_REDIS_URL.
const REDIS_URL = process.env.REDIS_URL ?? TEST_REDIS_URL;
const silent = pino({ level: 'silent' });
const prefix = `${uniqueName()}:`;
const WINDOW = 60_000;

let a: Redis;
let b: Redis;
const extra: Array<() => Promise<unknown> | void> = [];
beforeAll(async () => {
  [a, b] = await Promise.all([connectRedis(REDIS_URL, silent, 'a'), connectRedis(REDIS_URL, silent, 'b')]);
});
afterEach(async () => {
  for (const step of extra.splice(0).reverse()) await step();
});
afterAll(async () => {
  await deleteRedisPrefix(a, prefix);
  a.disconnect();
  b.disconnect();
});

it('counts one budget per key across connections, atomically, in windows that expire', async () => {
  const stores = [new RedisRateLimitStore(a, prefix, silent), new RedisRateLimitStore(b, prefix, silent)];
  const now = Date.now();
  const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 2]!.hit('key:shared', WINDOW, now)));
  expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  const windowEnd = Math.floor(now / WINDOW) * WINDOW + WINDOW;
  expect(new Set(hits.map((h) => h.resetAt))).toEqual(new Set([windowEnd]));
  // Another key has its own budget; the next window starts over.
  expect((await stores[0]!.hit('key:other', WINDOW, now)).count).toBe(1);
  expect((await stores[1]!.hit('key:shared', WINDOW, windowEnd)).count).toBe(1);
  const [key] = await a.keys(`${prefix}rl:key:shared:${windowEnd - WINDOW}`);
  const ttl = await a.pttl(key!);
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(windowEnd - now + 5000);
});

it('falls back to counting per node, promptly, when Redis is gone', async () => {
  const lost = await connectRedis(REDIS_URL, silent, 'lost');
  const store = new RedisRateLimitStore(lost, prefix, silent);
  expect((await store.hit('key:fallback', WINDOW, Date.now())).count).toBe(1);
  lost.disconnect();
  const started = Date.now();
  const state = await store.hit('key:fallback', WINDOW, Date.now());
  expect(state.count).toBe(1); // counted in memory, which had not seen this key
  expect(Date.now() - started).toBeLessThan(1500);
});

it('delivers a published key to this node at once and to other nodes under the same prefix only', async () => {
  const [one, two, foreign] = await Promise.all([
    RedisInvalidation.start(a, prefix, silent),
    RedisInvalidation.start(b, prefix, silent),
    RedisInvalidation.start(b, `${uniqueName()}:`, silent),
  ]);
  extra.push(
    () => one.close(),
    () => two.close(),
    () => foreign.close(),
  );
  const seen: Record<string, string[]> = { one: [], two: [], foreign: [] };
  one.subscribe((k) => seen.one!.push(k));
  two.subscribe((k) => seen.two!.push(k));
  foreign.subscribe((k) => seen.foreign!.push(k));

  one.publish('l:redirectory.test/some alias');
  expect(seen.one).toEqual(['l:redirectory.test/some alias']); // synchronously, before any round trip
  const started = Date.now();
  while (seen.two!.length === 0 && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 5));
  expect(seen.two).toEqual(['l:redirectory.test/some alias']);
  await new Promise((r) => setTimeout(r, 200));
  expect(seen.one).toHaveLength(1); // its own echo is ignored
  expect(seen.foreign).toEqual([]);
});

it('refuses to start with an unreachable REDIS_URL, naming Redis', async () => {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' });
  await expect(createContext(config, silent)).rejects.toThrow(/Redis is unreachable/);
});

it('reports not ready while Redis is unreachable, and the API keeps answering', async () => {
  const server = await startServer({ REDIS_URL });
  extra.push(() => server.close());
  const ready = await server.call('GET', '/ready');
  expect(ready.status).toBe(200);
  expect(ready.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
  const { apiKey } = await server.user();
  server.ctx.redis!.disconnect();
  const down = await server.call('GET', '/ready');
  expect(down.status).toBe(503);
  expect(down.body).toEqual({ status: 'unavailable', database: 'ok', redis: 'unreachable' });
  expect((await server.call('GET', '/api/account', { key: apiKey })).status).toBe(200);
});
