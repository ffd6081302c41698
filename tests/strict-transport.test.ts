import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

// Strict-Transport-Security on the hosts configured as https (BASE_URL's, DASHBOARD_URL's), on every answer
// there (lean redirects, Fastify pages, the API), never on branded domains nor on plain-http configurations.

const DASHBOARD = 'app.redirectory.test';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ BASE_URL: `https://${TEST_HOST}`, DASHBOARD_URL: `https://${DASHBOARD}`, RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

const hsts = async (path: string, host: string) => {
  const res = await server.visit(path, { headers: { host, 'user-agent': BROWSER } });
  return { status: res.status, value: res.headers['strict-transport-security'] };
};

describe('Strict-Transport-Security', () => {
  it('is sent on the https default and dashboard hosts, in any spelling, on redirects, pages and the API', async () => {
    const link = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/hsts', custom: 'hsts-link' } });
    expect(link.status).toBe(200);
    const domain = await server.call('POST', '/api/domain/add', { key, body: { domain: 'https://brand.hsts.test' } });
    expect(domain.status).toBe(200);
    const year = 'max-age=31536000';
    // Twice each: the second visit is answered from the link cache by the lean front.
    for (const host of [TEST_HOST, `${TEST_HOST.toUpperCase()}:443`, TEST_HOST])
      expect(await hsts('/hsts-link', host)).toEqual({ status: 302, value: year });
    expect(await hsts('/no-such-alias', TEST_HOST)).toEqual({ status: 404, value: year });
    expect(await hsts('/api/urls', TEST_HOST)).toEqual({ status: 401, value: year });
    expect(await hsts('/', DASHBOARD)).toMatchObject({ value: year });
    // Branded domains and other hosts are the proxy's business: their TLS is not ours to pin for a year.
    expect((await hsts('/hsts-link', 'brand.hsts.test')).value).toBeUndefined();
    expect((await hsts('/hsts-link', '127.0.0.1')).value).toBeUndefined();
  });

  it('is left out when HSTS_MAX_AGE is 0 and when the configured URLs are plain http', async () => {
    const envs: Array<Record<string, string>> = [{ BASE_URL: `https://${TEST_HOST}`, HSTS_MAX_AGE: '0' }, {}];
    for (const env of envs) {
      const other = await startServer(env);
      try {
        const res = await other.visit('/no-such-alias');
        expect(res.status).toBe(404);
        expect(res.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await other.close();
      }
    }
  });

  it('takes its max-age from HSTS_MAX_AGE, without includeSubDomains; behind a trusted proxy, from X-Forwarded-Host', async () => {
    const other = await startServer({ BASE_URL: `https://${TEST_HOST}`, HSTS_MAX_AGE: '600', TRUST_PROXY: 'true' });
    try {
      expect((await other.visit('/no-such-alias')).headers['strict-transport-security']).toBe('max-age=600');
      const proxied = await other.visit('/no-such-alias', { headers: { host: '10.0.0.5:3000', 'x-forwarded-host': TEST_HOST } });
      expect(proxied.headers['strict-transport-security']).toBe('max-age=600');
      const elsewhere = await other.visit('/no-such-alias', { headers: { 'x-forwarded-host': 'brand.hsts.test' } });
      expect(elsewhere.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
