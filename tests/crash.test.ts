import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { ensureBuilt } from './helpers/build.js';
import { send, startNode, type NodeProcess } from './helpers/cluster.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { TEST_HOST } from './helpers/server.js';

/**
 * SIGKILL while a client creates links as fast as it can: every create the server acknowledged survives
 * and redirects after a restart, no link is half-written, and the database checks out. On SQLite here;
 * on PostgreSQL in CI's second pass (DATABASE_URL=postgres://…).
 */
const WRITERS = 4;
const ROUNDS = 3;

interface Acked {
  id: number;
  alias: string;
  url: string;
}

let db: ProcessDb;
let node: NodeProcess | undefined;
let key: string;

beforeAll(async () => {
  await ensureBuilt();
  db = await processDb({ RATE_LIMIT_MAX: '1000000' });
  key = await db.withCtx(async (ctx) => (await createUser(ctx, { email: `crash${process.pid}@example.com` })).apiKey);
}, 120_000);

afterAll(async () => {
  node?.kill();
  await node?.exited;
  await db?.close();
});

const start = (round: number) => startNode(`crash-${round}`, db.env, { entry: 'dist' });

/**
 * Creates links back to back until the server goes away; records each one it acknowledged. Answers
 * other than 200 are collected (never thrown while the test is elsewhere) and fail the test after.
 */
async function writer(url: string, id: string, refs: { pixel: number; channel: number }, acked: Acked[], refused: string[]): Promise<number> {
  for (let n = 0; ; n++) {
    const alias = `k${id}x${n}`;
    const long = `https://example.com/${alias}?n=${n}`;
    let res;
    try {
      res = await send(url, 'POST', '/api/url/add', { key, body: { url: long, custom: alias, pixels: [refs.pixel], channel: refs.channel } });
    } catch {
      return n + 1; // the connection died with the server: this create is unacknowledged
    }
    if (res.status === 200) acked.push({ id: res.body.id, alias, url: long });
    else refused.push(`${res.status} ${res.text}`);
  }
}

/** Reads each link back through the API and visits it, a few at a time. */
async function expectServed(base: string, links: Acked[]): Promise<void> {
  const lanes = Array.from({ length: 8 }, (_, lane) => links.filter((_, i) => i % 8 === lane));
  await Promise.all(lanes.map((lane) => expectLaneServed(base, lane)));
}

async function expectLaneServed(base: string, links: Acked[]): Promise<void> {
  for (const link of links) {
    const detail = await send(base, 'GET', `/api/url/${link.id}`, { key });
    expect(detail.status, `link ${link.alias}`).toBe(200);
    expect(detail.body.details.longurl).toBe(link.url);
    // A link with pixels answers a page that fires them and forwards to the destination.
    const visit = await send(base, 'GET', `/${link.alias}`, { headers: { host: TEST_HOST } });
    expect(visit.status, `visit ${link.alias}`).toBe(200);
    expect(visit.text).toContain(`content="1;url=${link.url}"`);
  }
}

it('keeps every acknowledged link across SIGKILLs mid-write, with no half-written link', async () => {
  node = await start(0);
  const refs = {
    pixel: (await send(node.url, 'POST', '/api/pixel/add', { key, body: { type: 'analyticspixel', name: 'p', tag: 'G-1' } })).body.id as number,
    channel: (await send(node.url, 'POST', '/api/channel/add', { key, body: { name: 'crash' } })).body.id as number,
  };
  const acked: Acked[] = [];
  const refused: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const before = acked.length;
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(node!.url, `${round}${w}`, refs, acked, refused));
    // Kill at a different point of the write stream each round.
    await sleep(300 + round * 150);
    node.kill();
    await node.exited;
    const sent = (await Promise.all(writers)).reduce((a, b) => a + b, 0);
    expect(refused).toEqual([]);
    expect(acked.length - before, `round ${round}: creates acknowledged (of ${sent} sent)`).toBeGreaterThan(20);

    node = await start(round);
    await expectServed(node.url, acked.slice(before));
  }

  // Later crashes lost nothing acknowledged earlier.
  const listed = new Map<string, string>();
  for (let page = 1; ; page++) {
    const res = await send(node.url, 'GET', `/api/urls?limit=1000&page=${page}`, { key });
    for (const entry of res.body.data.urls) listed.set(entry.alias, entry.longurl);
    if (res.body.data.nextpage === 0) break;
  }
  expect(acked.filter((link) => listed.get(link.alias) !== link.url)).toEqual([]);
  // Unacknowledged creates either landed whole or not at all: every link has its pixel and channel row.
  await db.withCtx(async (ctx) => {
    const links = await ctx.db.selectFrom('links').select(['id', 'alias']).execute();
    const withPixel = await ctx.db.selectFrom('link_pixels').select('link_id').execute();
    const inChannel = await ctx.db.selectFrom('channel_items').select('item_id').where('item_type', '=', 'links').execute();
    expect(links.length).toBeGreaterThanOrEqual(acked.length);
    expect(withPixel.map((r) => r.link_id).sort()).toEqual(links.map((l) => l.id).sort());
    expect(inChannel.map((r) => r.item_id).sort()).toEqual(links.map((l) => l.id).sort());
    expect(new Set(links.map((l) => l.alias)).size).toBe(links.length);
  });
  expect(await node.stop()).toBe(0);
  node = undefined;
  expect(await db.integrityProblems()).toEqual([]);
}, 120_000);
