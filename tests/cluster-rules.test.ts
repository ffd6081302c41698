import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openContext, type AppContext } from '../src/context.js';
import { createUser } from '../src/features/account/service.js';
import { clicksOn, send, startNode, type NodeProcess } from './helpers/cluster.js';
import { TEST_HOST } from './helpers/server.js';
import { createTestSchema, deleteRedisPrefix, isPostgresUrl, TEST_PG_URL, TEST_REDIS_URL, type TestSchema } from './helpers/services.js';

/**
 * `maxvisits` across two real nodes on one PostgreSQL schema and one Redis prefix (tests/cluster.test.ts's
 * setup): the cap counts the clicks both served, through the stored count each re-reads.
 */
const PG_URL = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : TEST_PG_URL;
const REDIS_URL = process.env.REDIS_URL ?? TEST_REDIS_URL;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

let schema: TestSchema;
let env: Record<string, string>;
let ctx: AppContext;
const nodes: NodeProcess[] = [];

beforeAll(async () => {
  schema = await createTestSchema(PG_URL);
  env = { DATABASE_URL: schema.url, REDIS_URL, REDIS_PREFIX: `${schema.name}:`, BASE_URL: `http://${TEST_HOST}`, LOG_LEVEL: 'warn' };
  nodes.push(await startNode('A', env));
  nodes.push(await startNode('B', env));
  ctx = await openContext(loadConfig({ ...env, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
}, 90_000);

afterAll(async () => {
  for (const node of nodes) node.kill();
  if (ctx?.redis) await deleteRedisPrefix(ctx.redis, env.REDIS_PREFIX!);
  await ctx?.close();
  await schema?.drop();
});

const visit = (node: NodeProcess, alias: string, method = 'GET') => send(node.url, method, `/${alias}`, { headers: { 'user-agent': BROWSER } });

/** Polls until `check` holds (each node re-reads a capped link's stored count about every second). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}

it('a cap of 10 counts the clicks of both nodes, then both answer as expired', async () => {
  const [a, b] = nodes as [NodeProcess, NodeProcess];
  const key = (await createUser(ctx, { email: `cap${Date.now()}@example.com` })).apiKey;
  const added = await send(a.url, 'POST', '/api/url/add', { key, body: { url: 'https://example.com/capped', custom: 'capped-10', maxvisits: 10 } });
  expect(added.status, added.text).toBe(200);
  for (let i = 0; i < 6; i++) expect((await visit(a, 'capped-10')).status).toBe(302);
  for (let i = 0; i < 4; i++) expect((await visit(b, 'capped-10')).status).toBe(302);
  await until(async () => (await clicksOn(a, key, added.body.id)) === 10, 'the ten clicks are stored');
  // HEAD is answered like GET but never counted: it shows each node's view without adding to it.
  for (const node of [a, b]) await until(async () => (await visit(node, 'capped-10', 'HEAD')).status === 410, `node ${node.name} sees the cap`);
  for (const node of [a, b]) expect((await visit(node, 'capped-10')).status).toBe(410);
  await sleep(1500); // a click batch, were any still counted
  expect(await clicksOn(b, key, added.body.id)).toBe(10);
}, 60_000);
