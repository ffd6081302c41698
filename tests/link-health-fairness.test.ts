import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HealthChecker } from '../src/features/health/checker.js';
import { startServer, type TestServer } from './helpers/server.js';
import { startTarpit, type Tarpit } from './helpers/tarpit.js';

/**
 * The link checker shares its rounds (issue 38 item 3): a link of many destinations on a failing host does not
 * hold the round while its host backs off (its probes fail at once), and a link whose destinations take longer
 * than its budget is checked in parts, round after round.
 */
let server: TestServer;
let failing = 0;
const unavailable = createServer((_req, res) => void (failing++, res.writeHead(503).end()));
const missing = createServer((_req, res) => res.writeHead(404).end());
const origin = (s: typeof missing) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
let tarpits: Tarpit[] = [];

beforeAll(async () => {
  for (const s of [unavailable, missing]) s.listen(0, '127.0.0.1');
  await Promise.all([once(unavailable, 'listening'), once(missing, 'listening')]);
  tarpits = await Promise.all(Array.from({ length: 8 }, () => startTarpit()));
  // A 300 ms hop: a link's budget (six of them) covers about six silent hosts.
  server = await startServer({ OUTBOUND_ALLOW_LOOPBACK: 'true', OUTBOUND_TIMEOUT_MS: '300', RATE_LIMIT_MAX: '100000' });
});
afterAll(async () => {
  await server?.close();
  unavailable.close();
  missing.close();
  for (const t of tarpits) t.close();
});

const post = async (key: string, path: string, body?: unknown) => {
  const res = await server.call('POST', path, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return;
  throw new Error(`not within ${ms} ms: ${what}`);
}

it("a link of 61 destinations on a failing host does not keep another account's broken link unknown", async () => {
  const [a, b] = [(await server.user()).apiKey, (await server.user()).apiKey];
  const split = (tag: string) => Array.from({ length: 10 }, (_, i) => ({ url: `${origin(unavailable)}/${tag}${i}`, weight: 1 }));
  const rules = Array.from({ length: 5 }, (_, r) => ({ conditions: [{ type: 'query', name: `r${r}` }], split: split(`r${r}-`) }));
  await post(a, '/api/url/add', { url: `${origin(unavailable)}/a`, split: split('s'), rules });
  const checker = new HealthChecker(server.ctx, { intervalS: 3600, firstCheckS: 0, pauseMs: 100 });
  try {
    checker.start();
    await eventually(async () => failing > 0, 10_000, "A's link is being checked");
    const { id } = await post(b, '/api/url/add', { url: `${origin(missing)}/gone`, fallbackurl: 'https://example.com/sorry' });
    const health = async () => (await server.call('GET', `/api/url/${id as number}`, { key: b })).body.details.health.status as string;
    await eventually(async () => (await health()) === 'broken', 8000, "B's link found broken");
  } finally {
    await checker.close();
  }
});

it('checks a link whose silent destinations outlast its budget in parts, going on where the last check stopped', async () => {
  const key = (await server.user()).apiKey;
  const [first, ...rest] = tarpits.map((t) => `${t.url}/x`);
  const { id } = await post(key, '/api/url/add', { url: first, split: rest.map((url) => ({ url, weight: 1 })) });
  const reached = () => tarpits.filter((t) => t.connections() > 0).length;
  expect((await post(key, `/api/url/${id as number}/check`)).health).toMatchObject({ status: 'unreachable' });
  const once = reached();
  expect(once).toBeGreaterThan(0);
  expect(once).toBeLessThan(tarpits.length); // the budget ran out before the last destinations
  const untouched = tarpits.filter((t) => t.connections() === 0);
  await post(key, `/api/url/${id as number}/check`);
  expect(untouched.map((t) => t.connections())).toEqual(untouched.map(() => 1)); // the next check starts with the rest
});
