import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

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

describe('API rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ RATE_LIMIT_MAX: '5' });
  });
  afterAll(() => limited?.close());

  /** The same request byte for byte as given: header names in any case, a header twice. */
  const raw = (headers: Array<[string, string]>) =>
    rawRequest(limited.url, { method: 'GET', target: '/api/account', headers: [['Host', TEST_HOST], ...headers] });

  it('counts one budget per key however the Authorization header is spelled, and a second header changes nothing', async () => {
    const { apiKey: k } = await limited.user();
    const { apiKey: other } = await limited.user();
    const spellings: Array<Array<[string, string]>> = [
      [['Authorization', `Bearer ${k}`]],
      [['AUTHORIZATION', `bearer ${k}`]],
      [['authorization', `BEARER  ${k} `]],
      [['aUtHoRiZaTiOn', `Token ${k}`]],
      [['Authorization', k]],
    ];
    const admitted = await Promise.all(spellings.map(raw));
    expect(admitted.map((r) => [r.status, r.headers['x-ratelimit-remaining']]).sort()).toEqual([
      [200, '0'],
      [200, '1'],
      [200, '2'],
      [200, '3'],
      [200, '4'],
    ]);
    // Spent. Another spelling, a second Authorization header (with another valid key, before or after), a
    // forwarded address or a comma-joined list never buys a request with this key.
    const attempts: Array<Array<[string, string]>> = [
      [['authorization', `bearer ${k}`]],
      [
        ['Authorization', `Bearer ${k}`],
        ['Authorization', `Bearer ${other}`],
      ],
      [
        ['Authorization', `Bearer ${k}`],
        ['X-Forwarded-For', '203.0.113.7'],
      ],
      [['Authorization', `Bearer ${k}, Bearer ${other}`]],
      [
        ['Authorization', `Bearer ${k}`],
        ['X-Api-Key', other],
      ],
    ];
    for (const headers of attempts) {
      const res = await raw(headers);
      expect(res.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      expect([401, 429], JSON.stringify(headers)).toContain(res.status);
    }
    // The other key's own budget was not touched by being sent second.
    expect((await raw([['Authorization', `Bearer ${other}`]])).headers['x-ratelimit-remaining']).toBe('4');
  });

  it('counts unauthenticated attempts per client address; X-Forwarded-For is ignored unless TRUST_PROXY is set', async () => {
    await limited.close(); // a fresh address budget: the test above spent some of it on refused keys
    limited = await startServer({ RATE_LIMIT_MAX: '5' });
    for (let i = 0; i < 5; i++) expect((await raw([['Authorization', `Bearer wrong-${i}`]])).status).toBe(401);
    for (const forwarded of ['203.0.113.1', '198.51.100.2, 203.0.113.1', '::1']) {
      const res = await raw([
        ['Authorization', 'Bearer wrong'],
        ['X-Forwarded-For', forwarded],
        ['X-Real-IP', forwarded],
      ]);
      expect(res.status, forwarded).toBe(429);
    }
    expect((await raw([])).status).toBe(429);
  });
});
