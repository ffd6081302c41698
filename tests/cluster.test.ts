import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openContext, type AppContext } from '../src/context.js';
import { createUser } from '../src/features/account/service.js';
import { send, startNode, type NodeProcess } from './helpers/cluster.js';
import { TEST_HOST, type Reply } from './helpers/server.js';
import { createTestSchema, deleteRedisPrefix, isPostgresUrl, TEST_PG_URL, TEST_REDIS_URL, withPg, type TestSchema } from './helpers/services.js';
import { MIGRATION_NAMES } from '../src/db/migrate.js';

/**
 * Two real server processes on one PostgreSQL schema and one Redis prefix, as behind a load balancer
 * that does not pass the public Host: both share one BASE_URL and are reached by their own addresses.
 * Runs on the PostgreSQL pass of CI (DATABASE_URL=postgres://…) or with CLUSTER=1 (TEST_PG_URL,
 * TEST_REDIS_URL); never on the plain SQLite `npm test`.
 */
const PG_URL = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : TEST_PG_URL;
const REDIS_URL = process.env.REDIS_URL ?? TEST_REDIS_URL;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const PROPAGATION_MS = 1000;
/** One public address for both nodes, as behind a load balancer; requests go to each node's own address. */
const BASE_URL = `http://${TEST_HOST}`;

let schema: TestSchema;
let env: Record<string, string>;
let ctx: AppContext;
let a: NodeProcess;
let b: NodeProcess;
const nodes: NodeProcess[] = [];

beforeAll(async () => {
  schema = await createTestSchema(PG_URL);
  env = {
    DATABASE_URL: schema.url,
    REDIS_URL,
    REDIS_PREFIX: `${schema.name}:`,
    BASE_URL,
    LOG_LEVEL: 'warn',
    // Long enough that no click is written before the graceful stop: the stop itself must flush them.
    CLICK_FLUSH_MS: '600000',
  };
  // Both nodes start on the empty schema at the same moment, so they migrate concurrently.
  [a, b] = await Promise.all([startNode('A', env), startNode('B', env)]);
  nodes.push(a, b);
  ctx = await openContext(loadConfig({ ...env, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
}, 90_000);

afterAll(async () => {
  for (const node of nodes) node.kill();
  if (ctx?.redis) await deleteRedisPrefix(ctx.redis, env.REDIS_PREFIX!);
  await ctx?.close();
  await schema?.drop();
});

const newKey = async () => (await createUser(ctx, { email: `c${Date.now()}${Math.random()}@example.com` })).apiKey;
/** Sent to the node's own address, so Host is `127.0.0.1:<its port>`: each node serves the default domain of the one BASE_URL. */
const visit = (node: NodeProcess, alias: string) => send(node.url, 'GET', `/${alias}`, { headers: { 'user-agent': BROWSER } });
const isRedirectTo = (reply: Reply, url: string) => reply.status >= 301 && reply.status <= 308 && reply.headers.location === url;

/** Polls `node` until `done` holds for the alias; returns the milliseconds it took (fails past `limitMs`). */
async function timeUntil(node: NodeProcess, alias: string, done: (r: Reply) => boolean, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const reply = await visit(node, alias);
    const elapsed = Date.now() - started;
    if (done(reply)) return elapsed;
    if (elapsed > limitMs) throw new Error(`node ${node.name} still answers ${reply.status} ${reply.headers.location ?? ''} after ${elapsed} ms`);
    await sleep(20);
  }
}

it('migrates once when both nodes start on an empty database together', async () => {
  const applied = await withPg(PG_URL, (c) => c.query(`select name from "${schema.name}".kysely_migration`));
  expect(applied.rows.map((r: { name: string }) => r.name)).toEqual(MIGRATION_NAMES);
  for (const node of [a, b]) {
    const ready = await send(node.url, 'GET', '/ready');
    expect(ready.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
  }
});

it("serves on B a link created through A, sees A's update within 1 s and A's delete within 1 s", async () => {
  const key = await newKey();
  const alias = `cl${Date.now().toString(36)}`;
  const created = await send(a.url, 'POST', '/api/url/add', { key, body: { url: 'https://example.com/first', custom: alias } });
  expect(created.status).toBe(200);
  expect(created.body.shorturl).toBe(`${BASE_URL}/${alias}`); // built from BASE_URL, not from the node's address
  const id = created.body.id as number;
  expect(isRedirectTo(await visit(b, alias), 'https://example.com/first')).toBe(true); // B caches it now

  const updated = await send(a.url, 'PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/second' } });
  expect(updated.status).toBe(200);
  expect(await timeUntil(b, alias, (r) => isRedirectTo(r, 'https://example.com/second'), PROPAGATION_MS)).toBeLessThanOrEqual(PROPAGATION_MS);
  expect(isRedirectTo(await visit(a, alias), 'https://example.com/second')).toBe(true);

  const deleted = await send(a.url, 'DELETE', `/api/url/${id}/delete`, { key });
  expect(deleted.status).toBe(200);
  expect(await timeUntil(b, alias, (r) => r.status === 404, PROPAGATION_MS)).toBeLessThanOrEqual(PROPAGATION_MS);
  expect((await visit(a, alias)).status).toBe(404);
});

it('admits exactly 30 of 40 requests with one key spread over both nodes', async () => {
  const key = await newKey();
  // Windows are aligned to the minute; start well inside one so all 40 requests share it.
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 50_000) await sleep(60_000 - intoWindow + 200);
  const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => send((i % 2 ? b : a).url, 'GET', '/api/account', { key })));
  const statuses = replies.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(30);
  expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  // Both nodes took part in refusing, and report the shared budget.
  for (const node of [a, b]) expect((await send(node.url, 'GET', '/api/account', { key })).headers['x-ratelimit-remaining']).toBe('0');
});

it('gives exactly one success and clean 409s for the same custom alias created concurrently on both nodes', async () => {
  const keys = await Promise.all([newKey(), newKey()]);
  const alias = `race${Date.now().toString(36)}`;
  const attempts = Array.from({ length: 24 }, (_, i) =>
    send((i % 2 ? b : a).url, 'POST', '/api/url/add', { key: keys[i % 4 < 2 ? 0 : 1], body: { url: `https://example.com/${i}`, custom: alias } }),
  );
  const replies = await Promise.all(attempts);
  const winners = replies.filter((r) => r.status === 200);
  const losers = replies.filter((r) => r.status !== 200);
  expect(winners).toHaveLength(1);
  expect(losers.map((r) => r.status)).toEqual(Array(23).fill(409));
  for (const loser of losers) expect(loser.body).toEqual({ error: 1, message: expect.stringMatching(/alias/i), code: 'alias_taken' });
  const rows = await ctx.db.selectFrom('links').select('long_url').where('alias', '=', alias).execute();
  expect(rows).toHaveLength(1);
  const winnerUrl = rows[0]!.long_url;
  for (const node of [a, b]) expect(isRedirectTo(await visit(node, alias), winnerUrl)).toBe(true);
});

it('counts every click made on either node after both stop gracefully', async () => {
  const key = await newKey();
  const alias = `clk${Date.now().toString(36)}`;
  const created = await send(a.url, 'POST', '/api/url/add', { key, body: { url: 'https://example.com/counted', custom: alias } });
  const clicks = 37;
  const visits = await Promise.all(Array.from({ length: clicks }, (_, i) => visit(i % 3 ? a : b, alias)));
  expect(visits.every((r) => isRedirectTo(r, 'https://example.com/counted'))).toBe(true);

  expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  // A fresh node reads what the stopped ones flushed on their way out.
  const c = await startNode('C', env);
  nodes.push(c);
  const stats = await send(c.url, 'GET', `/api/url/${created.body.id}`, { key });
  expect(stats.status).toBe(200);
  expect(stats.body.data.clicks).toBe(clicks);
  expect(await c.stop()).toBe(0);
});

it('finishes a request in flight when SIGTERM arrives, then exits 0', async () => {
  const d = await startNode('D', env);
  nodes.push(d);
  const key = await newKey();
  const alias = `drn${Date.now().toString(36)}`;
  // The body arrives in two parts with the signal in between, so the request is mid-way at shutdown.
  const body = new PassThrough();
  const pending = request(`${d.url}/api/url/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  body.write('{"url":"https://example.com/drained",');
  await sleep(300);
  const exit = d.stop();
  await sleep(300);
  body.end(`"custom":"${alias}"}`);
  const res = await pending;
  expect(res.statusCode).toBe(200);
  expect(await res.body.json()).toMatchObject({ error: 0, id: expect.any(Number) });
  expect(await exit).toBe(0);
  const row = await ctx.db.selectFrom('links').select('long_url').where('alias', '=', alias).executeTakeFirst();
  expect(row?.long_url).toBe('https://example.com/drained');
});
