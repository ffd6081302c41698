import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { ensureBuilt } from './helpers/build.js';
import { send, startNode, type NodeProcess } from './helpers/cluster.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { TEST_HOST } from './helpers/server.js';

/**
 * The server keeps process.nextTick's literal stores monomorphic across full collections
 * (src/runtime-flags.ts, docs/performance.md#tick-object-maps). Without the kept tick object, a full
 * collection with no tick in flight frees the maps and every later tick defines its keys in V8's runtime.
 * The SQLite pass is the one that fails without it: with PostgreSQL and Redis the slots stayed monomorphic
 * without it too (something in that stack holds a tick object of its own).
 */
let db: ProcessDb;
let node: NodeProcess | undefined;

beforeAll(async () => {
  await ensureBuilt();
  db = await processDb();
}, 120_000);

afterAll(async () => {
  node?.kill();
  await node?.exited;
  await db?.close();
});

async function redirects(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await send(url, 'GET', '/ticks', { headers: { host: TEST_HOST } });
    expect(res.status).toBe(302);
  }
}

const SLOT = /DefineKeyedOwnPropertyInLiteral (\w+)/g;
const LITERAL_SLOTS = 4; // the tick object's four properties, from its first computed key on

/** Waits up to 10 s for the probe's word that the collections ran, and returns the output so far. */
async function collected(): Promise<string> {
  for (let i = 0; i < 100 && !node!.output().includes('collected'); i++) await sleep(100);
  return node!.output();
}

it("a full collection with no tick in flight leaves nextTick's literal stores monomorphic", async () => {
  const email = `ticks${process.pid}@example.com`;
  const key = await db.withCtx(async (ctx) => (await createUser(ctx, { email })).apiKey);
  node = await startNode('ticks', db.env, {
    entry: 'dist',
    logLimit: 1_000_000,
    nodeArgs: ['--allow-natives-syntax', '--expose-gc', '--require', './tests/fixtures/tick-probe.cjs'],
  });
  const created = await send(node.url, 'POST', '/api/url/add', { key, body: { url: 'https://example.com/t', custom: 'ticks' } });
  expect(created.status, created.text).toBe(200);
  await redirects(node.url, 200);
  node.proc.kill('SIGUSR2');
  // Without the probe's word the collections never ran, and the rest would prove nothing.
  expect(await collected()).toContain('collected');
  await redirects(node.url, 200);
  const closed = once(node.proc, 'close'); // after the exit, once its output has been read to the end
  node.proc.kill('SIGUSR2');
  expect((await closed)[0]).toBe(0); // the probe exits after printing
  const output = node.output();
  const slots = [...output.matchAll(SLOT)].map((m) => m[1]);
  expect(slots.length, output.slice(-3000)).toBe(LITERAL_SLOTS);
  expect(slots).not.toContain('MEGAMORPHIC');
});
