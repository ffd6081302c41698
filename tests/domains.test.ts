import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsAt } from '../src/features/domains/dns.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
  otherKey = (await server.user()).apiKey;
});
afterAll(() => server.close());

const add = (body: unknown, k = key) => server.call('POST', '/api/domain/add', { key: k, body });
const list = (query = '', k = key) => server.call('GET', `/api/domains${query}`, { key: k });
const entry = async (id: number, k = key) => (await list('?limit=1000', k)).body.data.domains.find((d: { id: number }) => d.id === id);

describe('domains', () => {
  it('adds a domain (host lower-cased, scheme kept) and lists it with exact keys', async () => {
    const res = await add({ domain: 'https://Go.Example.COM/', redirectroot: 'https://example.com/home', extra: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0, id: expect.any(Number) });
    const listed = await list();
    expect(listed.body.error).toBe('0');
    expect(Object.keys(listed.body.data).sort()).toEqual(['currentpage', 'domains', 'maxpage', 'nextpage', 'perpage', 'result']);
    const domain = await entry(res.body.id);
    expect(Object.keys(domain).sort()).toEqual(['domain', 'id', 'redirect404', 'redirectroot']);
    expect(domain).toEqual({ id: res.body.id, domain: 'https://go.example.com', redirectroot: 'https://example.com/home', redirect404: '' });
  });

  it('refuses malformed addresses, paths, queries and other schemes', async () => {
    for (const domain of [
      'go.example.org',
      'ftp://go.example.org',
      'https://go.example.org/path',
      'https://go.example.org/?q=1',
      'https://',
      'javascript:alert(1)',
    ]) {
      const res = await add({ domain });
      expect(res.status, domain).toBe(400);
      expect(res.body.error).toBe(1);
    }
    const wrongType = await add({ domain: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain('"domain"');
    expect((await add({})).body.message).toContain('"domain"');
  });

  it('refuses bad redirect URLs', async () => {
    const res = await add({ domain: 'https://r.example.org', redirect404: 'javascript:alert(1)' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('redirect404');
    expect((await add({ domain: 'https://r.example.org', redirectroot: 'not a url' })).body.message).toContain('redirectroot');
  });

  it("keeps hosts unique across accounts and refuses the service's own host", async () => {
    expect((await add({ domain: 'http://shared.example.org' })).status).toBe(200);
    const mine = await add({ domain: 'https://SHARED.example.org' });
    expect(mine.status).toBe(409);
    expect(mine.body).toEqual({ error: 1, message: 'That domain is already registered.', code: 'domain_taken' });
    expect((await add({ domain: 'https://shared.example.org' }, otherKey)).status).toBe(409);
    const own = await add({ domain: `https://${TEST_HOST}` });
    expect(own.status).toBe(400);
    expect(own.body.message).toContain('own address');
  });

  it('updates and clears redirects', async () => {
    const { id } = (await add({ domain: 'https://upd.example.org' })).body;
    const res = await server.call('PUT', `/api/domain/${id}/update`, {
      key,
      body: { redirectroot: 'https://a.example/', redirect404: 'https://b.example/404' },
    });
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    expect(await entry(id)).toMatchObject({ redirectroot: 'https://a.example/', redirect404: 'https://b.example/404' });
    await server.call('PUT', `/api/domain/${id}/update`, { key, body: { redirectroot: '' } });
    expect(await entry(id)).toMatchObject({ redirectroot: '', redirect404: 'https://b.example/404' });
    expect((await server.call('PUT', `/api/domain/${id}/update`, { key, body: { redirect404: 'data:text/html,x' } })).status).toBe(400);
    expect((await server.call('PUT', `/api/domain/${id}/update`, { key, body: {} })).status).toBe(400);
  });

  it('publishes the domain key on writes', async () => {
    const seen: string[] = [];
    server.ctx.invalidation.subscribe((k) => seen.push(k));
    const { id } = (await add({ domain: 'https://Pub.example.org' })).body;
    await server.call('PUT', `/api/domain/${id}/update`, { key, body: { redirectroot: '' } });
    await server.call('DELETE', `/api/domain/${id}/delete`, { key });
    expect(seen.filter((k) => k === 'd:pub.example.org')).toHaveLength(3);
  });

  it('deletes a domain without links and refuses one that still has links', async () => {
    const { id } = (await add({ domain: 'https://del.example.org' })).body;
    const link = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com', domain: 'del.example.org' } });
    expect(link.status).toBe(200);
    const refused = await server.call('DELETE', `/api/domain/${id}/delete`, { key });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This domain still has 1 short link; delete them or move them to another domain first.');
    await server.call('DELETE', `/api/url/${link.body.id}/delete`, { key });
    const res = await server.call('DELETE', `/api/domain/${id}/delete`, { key });
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    expect(await entry(id)).toBeUndefined();
  });

  it("answers 404 for another account's or an unknown domain", async () => {
    const { id } = (await add({ domain: 'https://private.example.org' })).body;
    const update = await server.call('PUT', `/api/domain/${id}/update`, { key: otherKey, body: { redirectroot: '' } });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ error: 1, message: 'Domain not found.', code: 'not_found' });
    expect((await server.call('DELETE', `/api/domain/${id}/delete`, { key: otherKey })).status).toBe(404);
    expect((await server.call('DELETE', '/api/domain/999999/delete', { key })).status).toBe(404);
    expect(await entry(id, otherKey)).toBeUndefined();
    expect(await entry(id)).toBeDefined();
  });

  it('paginates', async () => {
    const fresh = (await server.user()).apiKey;
    for (let i = 0; i < 3; i++) await add({ domain: `https://p${i}.pages.example.org` }, fresh);
    const first = (await list('?limit=2', fresh)).body.data;
    expect(first).toMatchObject({ result: 3, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 2 });
    expect(first.domains.map((d: { domain: string }) => d.domain)).toEqual(['https://p2.pages.example.org', 'https://p1.pages.example.org']);
    expect((await list('?limit=2&page=2', fresh)).body.data).toMatchObject({
      nextpage: 0,
      domains: [expect.objectContaining({ domain: 'https://p0.pages.example.org' })],
    });
    expect((await list('?limit=2&page=5', fresh)).body.data.domains).toEqual([]);
  });
});

describe('one host however it is spelled', () => {
  it('stores the canonical host: lower case, no final dot, punycode, no standard port', async () => {
    const cases = [
      ['https://Spell-A.test.', 'https://spell-a.test'],
      ['HTTPS://spell-b.test:443', 'https://spell-b.test'],
      ['https://bücher.test', 'https://xn--bcher-kva.test'],
      ['http://SPELL-C.test.:80', 'http://spell-c.test'],
      ['http://spell-d.test:8080', 'http://spell-d.test:8080'],
    ];
    for (const [input, listed] of cases) {
      const res = await add({ domain: input });
      expect(res.status, `${input} ${res.text}`).toBe(200);
      expect((await entry(res.body.id)).domain).toBe(listed);
    }
  });

  it('belongs to one account: another spelling of a taken host is a 409 that says so', async () => {
    expect((await add({ domain: 'https://a-brand.test' })).status).toBe(200);
    expect((await add({ domain: 'https://bücher-brand.test' })).status).toBe(200);
    const spellings = [
      'https://A-BRAND.test.',
      'HTTPS://a-brand.test:443',
      'http://a-brand.test',
      'http://A-Brand.Test.:80',
      'https://a-brand.test./',
    ];
    for (const domain of spellings) {
      const theirs = await add({ domain }, otherKey);
      expect(theirs.status, domain).toBe(409);
      expect(theirs.body).toEqual({
        error: 1,
        message: expect.stringContaining('a-brand.test is already registered by another account'),
        code: 'domain_taken_elsewhere',
      });
      expect((await add({ domain })).body).toEqual({ error: 1, message: 'That domain is already registered.', code: 'domain_taken' });
    }
    const idn = await add({ domain: `https://${domainToASCII('bücher-brand.test').toUpperCase()}.` }, otherKey);
    expect(idn.status).toBe(409);
    expect(idn.body.message).toContain(`${domainToASCII('bücher-brand.test')} is already registered by another account`);
    const rows = await server.ctx.db.selectFrom('domains').select('host').where('host', 'like', '%a-brand.test%').execute();
    expect(rows).toEqual([{ host: 'a-brand.test' }]);
  });

  it("is never the service's own host, in any spelling", async () => {
    for (const domain of [`https://${TEST_HOST}.`, 'http://REDIRECTORY.TEST', `http://${TEST_HOST}:80`, `https://Redirectory.Test.:443`]) {
      const res = await add({ domain });
      expect(res.status, domain).toBe(400);
      expect(res.body.message).toBe(`${TEST_HOST} is this service's own address; it is always available as the default domain.`);
    }
    expect((await server.visit('/', { headers: { host: `${TEST_HOST}.` } })).status).toBe(200); // the landing page, captured by no one
  });

  it("refuses the other scheme's standard port and empty labels", async () => {
    for (const domain of ['http://port.example.test:443', 'https://port.example.test:80']) {
      const res = await add({ domain });
      expect(res.status, domain).toBe(400);
      expect(res.body.message).toContain('standard port of the other scheme');
    }
    for (const domain of ['https://a..b.test', 'https://dots.test..']) expect((await add({ domain })).status, domain).toBe(400);
  });

  it('is found by links in any spelling', async () => {
    const { id } = (await add({ domain: 'https://links-brand.test' })).body;
    for (const domain of ['LINKS-BRAND.TEST.', 'https://links-brand.test:443/', 'links-brand.test:80']) {
      const res = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com', domain } });
      expect(res.status, `${domain} ${res.text}`).toBe(200);
      expect(res.body.shorturl).toMatch(/^https:\/\/links-brand\.test\//);
    }
    expect(await server.ctx.db.selectFrom('links').select('id').where('domain_id', '=', id).execute()).toHaveLength(3);
  });
});

describe('DNS check', () => {
  it('refuses a host that does not point at DOMAIN_DNS_TARGETS', async () => {
    const strict = await startServer({ RATE_LIMIT_MAX: '100000', DOMAIN_DNS_TARGETS: '203.0.113.7,edge.redirectory.invalid' });
    try {
      const user = await strict.user();
      const res = await strict.call('POST', '/api/domain/add', { key: user.apiKey, body: { domain: 'https://nothing.invalid' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('nothing.invalid does not point to this service');
      expect(res.body.message).toContain('203.0.113.7');
    } finally {
      await strict.close();
    }
  });

  it('accepts any host when no targets are set', async () => {
    expect(server.config.DOMAIN_DNS_TARGETS).toEqual([]);
    expect((await add({ domain: 'https://nothing.invalid' })).status).toBe(200);
  });

  it('matches addresses, CNAMEs and target host names that share an address', () => {
    const host = { addresses: ['198.51.100.4', '2001:db8::1'], cnames: ['edge.example.net'] };
    expect(pointsAt(host, [{ target: '198.51.100.4' }])).toBe(true);
    expect(pointsAt(host, [{ target: '2001:DB8::1' }])).toBe(true);
    expect(pointsAt(host, [{ target: 'Edge.Example.net.' }])).toBe(true);
    expect(pointsAt(host, [{ target: 'lb.example.net', records: { addresses: ['198.51.100.4'], cnames: [] } }])).toBe(true);
    expect(pointsAt(host, [{ target: '203.0.113.7' }, { target: 'other.example.net', records: { addresses: ['203.0.113.8'], cnames: [] } }])).toBe(
      false,
    );
  });
});
