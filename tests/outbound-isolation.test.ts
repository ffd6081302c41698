import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HealthChecker } from '../src/features/health/checker.js';
import { startServer, type TestServer } from './helpers/server.js';
import { startTarpit, type Tarpit } from './helpers/tarpit.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

/**
 * One account's receiver or destination that accepts the connection and never answers (a tarpit), with garbage
 * collections forced throughout, never stalls another account's deliveries or checks: each request's timeout is a
 * timer it holds (AbortSignal.timeout() in AbortSignal.any() dies in a GC, nodejs/node#57736) and rounds never
 * wait on their slowest item.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Polls `check` while forcing a GC every few ms; fails after `ms`. */
async function underGc(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    gc();
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

let server: TestServer;
let receiver: Receiver;
let hookTarpit: Tarpit;
let linkTarpit: Tarpit;
const missing = createHttpServer((_req, res) => res.writeHead(404).end());
let missingUrl: string;

beforeAll(async () => {
  [receiver, hookTarpit, linkTarpit] = await Promise.all([startReceiver(), startTarpit(), startTarpit()]);
  missing.listen(0, '127.0.0.1');
  await once(missing, 'listening');
  missingUrl = `http://127.0.0.1:${(missing.address() as AddressInfo).port}/gone`;
  // A 1 s hop timeout: the old weakly held timeout signal is collected well before it fires.
  server = await startServer({ OUTBOUND_ALLOW_LOOPBACK: 'true', OUTBOUND_TIMEOUT_MS: '1000', WEBHOOK_BACKOFF_MS: '100', RATE_LIMIT_MAX: '100000' });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  hookTarpit?.close();
  linkTarpit?.close();
  missing.close();
});

const post = async (key: string, path: string, body: unknown) => {
  const res = await server.call('POST', path, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

it("delivers account B's webhook on time while account A's receiver is a tarpit", async () => {
  const [a, b] = [(await server.user()).apiKey, (await server.user()).apiKey];
  await post(a, '/api/webhook/add', { url: `${hookTarpit.url}/a`, events: ['link.created'] });
  await post(b, '/api/webhook/add', { url: `${receiver.url}/b`, events: ['link.created'] });
  for (let i = 0; i < 3; i++) await post(a, '/api/url/add', { url: `https://example.com/a${i}` });
  await underGc(() => hookTarpit.connections() > 0, 10_000, "A's delivery reaches the tarpit");
  await post(b, '/api/url/add', { url: 'https://example.com/b' });
  await underGc(() => receiver.received.some((r) => r.path === '/b'), 8000, "B's delivery");
});

it("checks account B's broken link on time while account A's link points at a tarpit", async () => {
  const [a, b] = [(await server.user()).apiKey, (await server.user()).apiKey];
  const checker = new HealthChecker(server.ctx, { intervalS: 3600, firstCheckS: 0, pauseMs: 100 });
  try {
    const split = Array.from({ length: 6 }, (_, i) => ({ url: `${linkTarpit.url}/a${i}`, weight: 1 }));
    await post(a, '/api/url/add', { url: `${linkTarpit.url}/a`, split });
    checker.start();
    await underGc(() => linkTarpit.connections() > 0, 10_000, "A's check reaches the tarpit");
    const { id } = await post(b, '/api/url/add', { url: missingUrl, fallbackurl: 'https://example.com/sorry' });
    const health = async () => (await server.call('GET', `/api/url/${id as number}`, { key: b })).body.details.health.status;
    await underGc(async () => (await health()) === 'broken', 8000, "B's check");
  } finally {
    await checker.close();
  }
});
