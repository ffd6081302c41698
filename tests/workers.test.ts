import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { readStats } from '../src/features/stats/service.js';
import { send, startNode, type NodeProcess } from './helpers/cluster.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { TEST_HOST } from './helpers/server.js';

// WORKERS=2: two processes share the port (node:cluster); a change made through one must reach the
// other's link cache at once, and a graceful stop must flush both workers' clicks.
let db: ProcessDb;
let node: NodeProcess;
let key: string;

beforeAll(async () => {
  db = await processDb();
  key = (await db.withCtx((ctx) => createUser(ctx, { email: 'workers@example.com' }))).apiKey;
  node = await startNode('workers', { ...db.env, WORKERS: '2', RATE_LIMIT_MAX: '100000', CLICK_FLUSH_MS: '200' });
}, 60_000);

afterAll(async () => {
  node?.kill();
  await db?.close();
});

/** Each visit on a new connection, so the cluster's round-robin spreads them over both workers. */
async function locations(alias: string, times: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < times; i++) {
    const res = await request(`${node.url}/${alias}`, {
      headers: { host: TEST_HOST, connection: 'close', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' },
    });
    await res.body.dump();
    seen.push(String(res.headers.location));
  }
  return seen;
}

it('serves from both workers, sees an update made through either at once, and counts every click after SIGTERM', async () => {
  const added = await send(node.url, 'POST', '/api/url/add', { key, body: { url: 'https://example.com/before' } });
  expect(added.status).toBe(200);
  const alias = String(added.body.shorturl).split('/').pop()!;
  expect(new Set(await locations(alias, 10))).toEqual(new Set(['https://example.com/before'])); // both workers cache it
  for (let round = 0; round < 4; round++) {
    const url = `https://example.com/after-${round}`;
    const updated = await send(node.url, 'PUT', `/api/url/${added.body.id}/update`, { key, body: { url } });
    expect(updated.status).toBe(200);
    expect(new Set(await locations(alias, 6))).toEqual(new Set([url]));
  }
  expect(await node.stop()).toBe(0);
  const stats = await db.withCtx((ctx) => readStats(ctx, 'link', added.body.id));
  expect(stats.clicks).toBe(10 + 4 * 6);
});
