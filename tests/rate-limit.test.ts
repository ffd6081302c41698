import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('admits 30 requests per key in a window and refuses the 31st with 429 and Retry-After', async () => {
  const { apiKey } = await server.user();
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 31; i++) {
    last = await server.call('GET', '/api/account', { key: apiKey });
    statuses.push(last.status);
    expect(last.headers['x-ratelimit-limit']).toBe('30');
    expect(Number(last.headers['x-ratelimit-remaining'])).toBe(Math.max(30 - (i + 1), 0));
    expect(Number(last.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
  }
  expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
  expect(statuses[30]).toBe(429);
  expect(last!.body).toEqual({ error: 1, message: expect.stringContaining('Too many requests'), code: 'rate_limited' });
  expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  // Another key has its own budget.
  const other = await server.user();
  expect((await server.call('GET', '/api/account', { key: other.apiKey })).status).toBe(200);
});

it('limits unauthenticated attempts per client IP', async () => {
  const fresh = await startServer({ RATE_LIMIT_MAX: '3' });
  try {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fresh.call('GET', '/api/account', { key: `wrong-${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  } finally {
    await fresh.close();
  }
});
