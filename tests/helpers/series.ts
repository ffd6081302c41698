import { afterAll, beforeAll, expect, vi } from 'vitest';
import { startServer, type TestServer } from './server.js';
import { UA } from './user-agents.js';

/** Visitors of the click series tests: three people and a crawler. */
export const A = { ip: '8.8.8.8', ua: UA.iphone };
export const B = { ip: '81.2.69.142', ua: UA.windowsChrome };
export const C = { ip: '5.9.0.1', ua: UA.macSafari };
export const BOT = { ip: '66.249.66.1', ua: UA.googlebot };
type Visitor = typeof A;
export type Point = { date: string; clicks: number; uniqueClicks: number };

/** Calls and visits against one server with one default API key. */
export function seriesClient(serverOf: () => TestServer, key: () => string) {
  const post = async (path: string, body: unknown, apiKey = key()) => {
    const res = await serverOf().call('POST', path, { key: apiKey, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  return {
    post,
    addLink: async (apiKey = key(), extra = {}) => {
      const body = await post('/api/url/add', { url: 'https://example.com/x', ...extra }, apiKey);
      return { id: body.id as number, path: new URL(body.shorturl).pathname };
    },
    addQr: async () => {
      const body = await post('/api/qr/add', { type: 'link', data: 'https://example.com/qr' });
      return { id: body.id as number, path: `${new URL(body.link).pathname}/scan` };
    },
    /** Serves the visits as if the server's clock read `iso` (only Date is faked; it runs on from there). */
    visitAt: async (iso: string, path: string, visitors: Visitor[]) => {
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      vi.setSystemTime(new Date(iso));
      try {
        for (const { ip, ua } of visitors) {
          const res = await serverOf().visit(path, { headers: { 'user-agent': ua, 'x-forwarded-for': ip } });
          expect(res.status).toBeLessThan(400);
        }
      } finally {
        vi.useRealTimers();
      }
    },
    series: async (path: string, query: string, apiKey = key()) => {
      const res = await serverOf().call('GET', `${path}?${query}`, { key: apiKey });
      expect(res.status, res.text).toBe(200);
      expect(res.body.error).toBe(0);
      return res.body.data as Point[];
    },
  };
}

export const nonZero = (data: Point[]) => data.filter((p) => p.clicks > 0);
export const sums = (data: Point[]) =>
  data.reduce((s, p) => ({ clicks: s.clicks + p.clicks, uniqueClicks: s.uniqueClicks + p.uniqueClicks }), { clicks: 0, uniqueClicks: 0 });

/** A test file's server with two accounts (started before its tests, closed after) and its client. */
export function seriesSuite() {
  let server: TestServer;
  let key = '';
  let other = '';
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: 'true', RATE_LIMIT_MAX: '100000' });
    key = (await server.user()).apiKey;
    other = (await server.user()).apiKey;
  });
  afterAll(() => server.close());
  return {
    ...seriesClient(
      () => server,
      () => key,
    ),
    get server() {
      return server;
    },
    get key() {
      return key;
    },
    get other() {
      return other;
    },
  };
}
