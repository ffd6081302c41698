import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';
import { dashboard, signedInUser } from './helpers/session.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server.close());

it('makes a new API key for a dashboard session, and the old key stops working at once', async () => {
  const user = await signedInUser(server);
  const res = await dashboard(server, 'POST', '/api/account/key', { session: user });
  expect(res.status, res.text).toBe(200);
  const key = res.body.data.apiKey as string;
  expect(key).not.toBe(user.apiKey);
  expect((await server.call('GET', '/api/account', { key })).body.data.email).toBe(user.email);
  expect((await server.call('GET', '/api/account', { key: user.apiKey })).status).toBe(401);
  expect((await dashboard(server, 'POST', '/api/account/key', { session: user, csrf: false })).status).toBe(403);
});

it('refuses an API key: a leaked key cannot replace itself and lock its owner out', async () => {
  const user = await server.user();
  const res = await server.call('POST', '/api/account/key', { key: user.apiKey, headers: { host: TEST_HOST } });
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ error: 1, code: 'session_invalid' });
  expect((await server.call('GET', '/api/account', { key: user.apiKey })).status).toBe(200);
});
