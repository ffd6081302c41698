import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { startTarpit, type Tarpit } from './helpers/tarpit.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

/**
 * A node sends at most half its 16 slots' worth of one account's deliveries at a time: an account whose receivers
 * all hang (each send held to its 60 s deadline here) still leaves slots for another account's first try.
 */
let server: TestServer;
let receiver: Receiver;
let tarpit: Tarpit;

beforeAll(async () => {
  [receiver, tarpit] = await Promise.all([startReceiver(), startTarpit()]);
  server = await startServer({ OUTBOUND_ALLOW_LOOPBACK: 'true', OUTBOUND_TIMEOUT_MS: '20000', RATE_LIMIT_MAX: '100000' });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  tarpit?.close();
});

const post = async (key: string, path: string, body: unknown) => {
  const res = await server.call('POST', path, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("sends another account's delivery while one account's 20 sends hang", async () => {
  const [a, b] = [(await server.user()).apiKey, (await server.user()).apiKey];
  for (let i = 0; i < 20; i++) await post(a, '/api/webhook/add', { url: `${tarpit.url}/a${i}`, events: ['link.created'] });
  await post(b, '/api/webhook/add', { url: `${receiver.url}/b`, events: ['link.created'] });
  await post(a, '/api/url/add', { url: 'https://example.com/a' });
  await until(() => tarpit.connections() > 0, 10_000, "A's deliveries reach the tarpit");
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the rounds after lease what A has due
  await post(b, '/api/url/add', { url: 'https://example.com/b' });
  await until(() => receiver.received.some((r) => r.path === '/b'), 8000, "B's delivery");
});
