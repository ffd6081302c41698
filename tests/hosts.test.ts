import { domainToASCII } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTimestamp } from '../src/lib/time.js';
import { rawRequest } from './helpers/raw-http.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

/**
 * Which site a Host header is served as: a branded domain in any spelling of its host, else the
 * default domain (as Shlink does), whatever address the request reached the node by.
 */
let server: TestServer;
let key: string;
let userId: number;
let port: string;

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
  ({ apiKey: key, id: userId } = await server.user());
  port = new URL(server.url).port;
});
afterAll(() => server.close());

async function addLink(body: Record<string, unknown>): Promise<{ id: number; shorturl: string }> {
  const res = await server.call('POST', '/api/url/add', { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Where a visit goes (the Location of a redirect), or its status when it is not a redirect; headers are sent as given. */
async function goes(path: string, headers: Record<string, string>): Promise<string | number> {
  const res = await rawRequest(server.url, { method: 'GET', target: path, headers: [['User-Agent', BROWSER], ...Object.entries(headers)] });
  return res.status === 302 ? res.headers.location! : res.status;
}

describe('a Host that is no branded domain', () => {
  it('is served as the default domain, while short URLs are still built from BASE_URL', async () => {
    const { shorturl } = await addLink({ url: 'https://example.com/any-host', custom: 'any-host' });
    expect(shorturl).toBe(`http://${TEST_HOST}/any-host`);
    const hosts = [
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'localhost',
      `localhost:${port}`,
      'node-7.internal:8080',
      'sho.rt:443',
      'REDIRECTORY.TEST.',
      `${TEST_HOST}:443`,
      `${TEST_HOST}:80`,
      'unknown.example',
      '[::1',
      'exa%mple.com',
      `${TEST_HOST}@evil.example`,
    ];
    for (const host of hosts) {
      // Three times: Fastify's route, then the lean front on a miss, then on the cached link.
      for (let i = 0; i < 3; i++) expect(await goes('/any-host', { host }), host).toBe('https://example.com/any-host');
      expect(await goes('/', { host }), host).toBe(200); // the landing page
      expect(await goes('/no-such-alias', { host }), host).toBe(404);
    }
  });

  it('is remembered as the default domain: a flood of one odd host reads the database once per cache lifetime', async () => {
    await addLink({ url: 'https://example.com/odd-default', custom: 'odd-alias' });
    const host = 'odd-host.example';
    expect(await goes('/odd-alias', { host })).toBe('https://example.com/odd-default');
    // A domain row written behind the resolver's back (no invalidation): only a cached answer hides it.
    const id = await insertDomain(host, 'https://example.com/odd-root');
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/odd-brand', custom: 'odd-alias', domain: host } });
    expect(await goes('/', { host: 'ODD-HOST.example.' })).toBe(200);
    // An API write of that domain publishes its key, and the host is read again.
    await server.call('PUT', `/api/domain/${id}/update`, { key, body: { redirect404: 'https://example.com/odd-404' } });
    expect(await goes('/', { host: 'ODD-HOST.example.' })).toBe('https://example.com/odd-root');
    expect(await goes('/odd-alias', { host })).toBe('https://example.com/odd-brand');
  });
});

describe('a branded domain', () => {
  it('is served whatever the spelling of its Host: case, final dot, standard port', async () => {
    const domain = await server.call('POST', '/api/domain/add', {
      key,
      body: { domain: 'https://a-brand.test', redirectroot: 'https://example.org/root', redirect404: 'https://example.org/404' },
    });
    expect(domain.status, domain.text).toBe(200);
    await addLink({ url: 'https://example.com/default-twin', custom: 'twin' });
    const { shorturl } = await addLink({ url: 'https://example.com/branded-twin', custom: 'twin', domain: 'A-BRAND.TEST.' });
    expect(shorturl).toBe('https://a-brand.test/twin');
    for (const host of ['a-brand.test', 'A-BRAND.TEST.', 'a-brand.test:443', 'A-Brand.Test.:80']) {
      for (let i = 0; i < 3; i++) expect(await goes('/twin', { host }), host).toBe('https://example.com/branded-twin');
      expect(await goes('/', { host }), host).toBe('https://example.org/root');
      expect(await goes('/nothing', { host }), host).toBe('https://example.org/404');
    }
    expect(await goes('/twin', { host: 'a-brand.test:8443' })).toBe('https://example.com/default-twin'); // another port, another host
  });

  it("named by X-Forwarded-Host behind a trusted proxy is served on the lean path as on Fastify's", async () => {
    expect((await server.call('POST', '/api/domain/add', { key, body: { domain: 'https://fwd.example.test' } })).status).toBe(200);
    await addLink({ url: 'https://example.com/fwd-default', custom: 'fwd' });
    await addLink({ url: 'https://example.com/fwd-branded', custom: 'fwd', domain: 'fwd.example.test' });
    const internal = `redirectory-node:${port}`;
    for (let i = 0; i < 3; i++) {
      expect(await goes('/fwd', { host: internal, 'x-forwarded-host': 'FWD.example.test' })).toBe('https://example.com/fwd-branded');
      expect(await goes('/fwd', { host: internal, 'x-forwarded-host': `evil.example, fwd.example.test` })).toBe('https://example.com/fwd-branded');
      expect(await goes('/fwd', { host: internal })).toBe('https://example.com/fwd-default');
    }
  });
});

describe('migration 0005', () => {
  it('gives existing rows the canonical host; a spelling whose canonical host is held keeps its own', async () => {
    const { up } = await import('../src/db/migrations/0005-canonical-domain-hosts.js');
    const owner = (await server.user()).id;
    const insert = (host: string, scheme = 'https') => insertDomain(host, '', owner, scheme);
    for (const host of ['old-dot.test.', 'twice.test.', 'twice.test', 'bücher-old.test']) await insert(host);
    await insert('old-port.test:443', 'http');
    await up(server.ctx.db as unknown as Kysely<unknown>);
    const hosts = await server.ctx.db.selectFrom('domains').select('host').where('user_id', '=', owner).orderBy('id').execute();
    expect(hosts.map((h) => h.host)).toEqual(['old-dot.test', 'twice.test.', 'twice.test', domainToASCII('bücher-old.test'), 'old-port.test']);
  });
});

async function insertDomain(host: string, root: string, owner = userId, scheme = 'https'): Promise<number> {
  const row = await server.ctx.db
    .insertInto('domains')
    .values({ user_id: owner, host, scheme, redirect_root: root, redirect_404: '', created_at: nowTimestamp() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
