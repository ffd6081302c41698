import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { TEST_REDIS_URL, uniqueName } from './helpers/services.js';

// Issue 38 item 10: two nodes on one database and one Redis prefix count a link's password tries together.
// Runs on a PostgreSQL + Redis run (REDIS_URL) or with CLUSTER=1 against TEST_REDIS_URL.
const REDIS_URL = process.env.REDIS_URL ?? TEST_REDIS_URL;
const CEILING = 6;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  const env = { TRUST_PROXY: 'true', RATE_LIMIT_MAX: '100000', LINK_PASSWORD_CEILING: String(CEILING), REDIS_URL, REDIS_PREFIX: `${uniqueName()}:` };
  a = await startServer(env);
  b = await startServer({ ...env, DATABASE_URL: a.config.DATABASE_URL });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const guess = (node: TestServer, password: string, ip: string) =>
  node.visit('/shared-vault', { method: 'POST', headers: { ...FORM, 'x-forwarded-for': ip }, body: new URLSearchParams({ password }).toString() });

it("shares a link's per-client limit and its ceiling between nodes through Redis", async () => {
  const key = (await a.user()).apiKey;
  const made = await a.call('POST', '/api/url/add', {
    key,
    body: { url: 'https://example.com/v', custom: 'shared-vault', password: 'correct horse' },
  });
  expect(made.status, made.text).toBe(200);

  // Five tries of one client, spread over both nodes, are all it gets on either.
  for (const node of [a, b, a, b, a]) expect((await guess(node, 'wrong', '198.51.100.20')).status).toBe(401);
  expect((await guess(b, 'correct horse', '198.51.100.20')).status).toBe(429);

  // The link's ceiling counts the tries both nodes saw: the sixth, from another client, is the last.
  expect((await guess(b, 'wrong', '198.51.100.21')).status).toBe(401);
  const stopped = await guess(a, 'correct horse', '198.51.100.22');
  expect(stopped.status).toBe(429);
  expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
  expect((await guess(b, 'correct horse', '198.51.100.23')).status).toBe(429);
});
