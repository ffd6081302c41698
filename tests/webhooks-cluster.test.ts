import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openContext, type AppContext } from '../src/context.js';
import { createUser } from '../src/features/account/service.js';
import { send, startNode, type NodeProcess } from './helpers/cluster.js';
import { TEST_HOST } from './helpers/server.js';
import { createTestSchema, deleteRedisPrefix, isPostgresUrl, TEST_PG_URL, TEST_REDIS_URL, type TestSchema } from './helpers/services.js';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.js';

/**
 * Two real nodes on one PostgreSQL schema and one Redis prefix (tests/cluster.test.ts's setup), both running
 * the delivery worker: every event is delivered exactly once, whichever node queued it (`FOR UPDATE SKIP LOCKED`).
 */
const PG_URL = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : TEST_PG_URL;
const REDIS_URL = process.env.REDIS_URL ?? TEST_REDIS_URL;
const EVENTS = 60;

let schema: TestSchema;
let env: Record<string, string>;
let ctx: AppContext;
let receiver: Receiver;
const nodes: NodeProcess[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  schema = await createTestSchema(PG_URL);
  env = {
    DATABASE_URL: schema.url,
    REDIS_URL,
    REDIS_PREFIX: `${schema.name}:`,
    BASE_URL: `http://${TEST_HOST}`,
    LOG_LEVEL: 'warn',
    HEALTH_INTERVAL_S: '0',
    RATE_LIMIT_MAX: '100000',
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    // Both nodes look for due deliveries every few tens of milliseconds: their rounds overlap all the time.
    WEBHOOK_BACKOFF_MS: '30',
  };
  nodes.push(await startNode('A', env));
  nodes.push(await startNode('B', env));
  ctx = await openContext(loadConfig({ ...env, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
}, 90_000);

afterAll(async () => {
  for (const node of nodes) node.kill();
  if (ctx?.redis) await deleteRedisPrefix(ctx.redis, env.REDIS_PREFIX!);
  await ctx?.close();
  await schema?.drop();
  await receiver?.close();
});

it('delivers each event exactly once across two nodes', async () => {
  const [a, b] = nodes as [NodeProcess, NodeProcess];
  const key = (await createUser(ctx, { email: `hooks${Date.now()}@example.com` })).apiKey;
  const hook = await send(a.url, 'POST', '/api/webhook/add', {
    key,
    body: { url: `${receiver.url}/cluster`, events: ['link.created', 'link.deleted'] },
  });
  expect(hook.status, hook.text).toBe(200);
  const ids: number[] = [];
  for (let i = 0; i < EVENTS / 2; i++) {
    const node = i % 2 === 0 ? a : b;
    const added = await send(node.url, 'POST', '/api/url/add', { key, body: { url: `https://example.com/c${i}` } });
    expect(added.status, added.text).toBe(200);
    ids.push(added.body.id);
  }
  for (const [i, id] of ids.entries()) expect((await send((i % 2 === 0 ? b : a).url, 'DELETE', `/api/url/${id}/delete`, { key })).status).toBe(200);
  await receiver.until((all) => new Set(all.map((r) => r.json?.id)).size >= EVENTS, 'every event');
  await until(async () => {
    const listed = await send(b.url, 'GET', `/api/webhook/${hook.body.id}/deliveries?limit=100`, { key });
    return listed.body.data.deliveries.every((d: { status: string }) => d.status === 'delivered');
  }, 'every delivery recorded');
  const listed = await send(a.url, 'GET', `/api/webhook/${hook.body.id}/deliveries?limit=100`, { key });
  expect(listed.body.data.result).toBe(EVENTS);
  for (const d of listed.body.data.deliveries) expect(d).toMatchObject({ status: 'delivered', attempts: 1, responseCode: 200 });
  const received = receiver.received.filter((r) => r.path === '/cluster');
  expect(received).toHaveLength(EVENTS);
  expect(new Set(received.map((r) => r.json.id)).size).toBe(EVENTS);
  const created = received.filter((r) => r.json.event === 'link.created').map((r) => r.json.data.id);
  expect(created.sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
}, 120_000);
