import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { send, startNode, type NodeProcess } from './helpers/cluster.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { startTarpit, type Tarpit } from './helpers/tarpit.js';

/**
 * SIGTERM while outbound work hangs: a webhook delivery and a check a person asked for wait on a tarpit (with a
 * 60 s hop timeout), and the background checker works through a link of many destinations on a host that
 * answers 503 and so backs off. Shutdown cuts all of it short and the process exits well within the 10 s the
 * README promises.
 */
let db: ProcessDb;
let key: string;
let tarpit: Tarpit;
let node: NodeProcess | undefined;
let failing = 0;
const unavailable = createServer((_req, res) => void (failing++, res.writeHead(503).end()));

beforeAll(async () => {
  tarpit = await startTarpit();
  unavailable.listen(0, '127.0.0.1');
  await once(unavailable, 'listening');
  db = await processDb({ RATE_LIMIT_MAX: '100000', OUTBOUND_ALLOW_LOOPBACK: 'true', OUTBOUND_TIMEOUT_MS: '60000', HEALTH_INTERVAL_S: '1' });
  key = await db.withCtx(async (ctx) => (await createUser(ctx, { email: `outbound-stop${process.pid}@example.com` })).apiKey);
}, 60_000);

afterAll(async () => {
  node?.kill();
  await node?.exited;
  await db?.close();
  tarpit?.close();
  unavailable.close();
});

const post = async (path: string, body?: unknown) => {
  const res = await send(node!.url, 'POST', path, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** Makes the links due now, so the node's first round (a second after it listens) checks them. */
async function dueNow(ids: number[]): Promise<void> {
  await db.withCtx(async (ctx) => {
    const rows = ids.map((id) => ({ target_kind: 'link' as const, target_id: id, due_at: '2000-01-01 00:00:00' }));
    await ctx.db
      .insertInto('health_checks')
      .values(rows)
      .onConflict((oc) => oc.columns(['target_kind', 'target_id']).doUpdateSet({ due_at: '2000-01-01 00:00:00' }))
      .execute();
  });
}

it('SIGTERM with outbound requests hanging and a host backing off exits within a few seconds', async () => {
  // A first node without background checks sets the scene, so the second one's first round finds it due.
  node = await startNode('outbound-seed', { ...db.env, HEALTH_INTERVAL_S: '0' });
  await post('/api/webhook/add', { url: `${tarpit.url}/hook`, events: ['link.created'] });
  const { id } = await post('/api/url/add', { url: `${tarpit.url}/link` });
  const origin = `http://127.0.0.1:${(unavailable.address() as AddressInfo).port}`;
  const split = Array.from({ length: 10 }, (_, i) => ({ url: `${origin}/s${i}`, weight: 1 }));
  const many = await post('/api/url/add', { url: `${origin}/many`, split });
  const seeded = node;
  expect(await seeded.stop(), seeded.output()).toBe(0);
  await dueNow([id as number, many.id as number]);

  node = await startNode('outbound-stop', db.env);
  const before = tarpit.connections();
  await post('/api/url/add', { url: 'https://example.com/hooked' }); // its link.created delivery goes to the tarpit
  const asked = send(node.url, 'POST', `/api/url/${id as number}/check`, { key }).catch(() => null);
  for (let i = 0; i < 100 && (tarpit.connections() < before + 2 || failing < 1); i++) await sleep(100);
  expect([tarpit.connections() >= before + 2, failing >= 1]).toEqual([true, true]);
  const signalled = Date.now();
  const code = await node.stop();
  const took = Date.now() - signalled;
  expect(code, node.output()).toBe(0);
  expect(took).toBeLessThan(5000);
  await asked;
}, 60_000);
