import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const US = '8.8.8.8';
const GB = '81.2.69.142';
const DE = '5.9.0.1';

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function addLink(body: Record<string, unknown>): Promise<{ id: number; alias: string }> {
  const res = await server.call('POST', '/api/url/add', { key, body });
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id, alias: new URL(res.body.shorturl).pathname.slice(1) };
}

async function go(path: string, headers: Record<string, string> = {}): Promise<string | undefined> {
  const res = await server.visit(path, { headers: { 'user-agent': WINDOWS, ...headers } });
  expect(res.status, res.text).toBe(302);
  return res.headers.location as string;
}

describe('direct links', () => {
  it('redirects with 302, keeps the query, appends parameters encoded, and is not cacheable', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/path?x=1#top',
      parameters: [
        { name: 'utm_source', value: 'a b&c' },
        { name: 'é', value: '✓' },
      ],
    });
    const res = await server.visit(`/${alias}`, { headers: { 'user-agent': WINDOWS } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://example.com/path?x=1&utm_source=a%20b%26c&%C3%A9=%E2%9C%93#top');
    expect(res.headers['cache-control']).toBe('private, max-age=0');
    expect(res.text).toBe('');
  });

  it('sends the ASCII form of internationalized destinations', async () => {
    const { alias } = await addLink({ url: 'https://bücher.example/straße?q=ü' });
    expect(await go(`/${alias}`)).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC');
  });

  it('answers HEAD like GET without a body', async () => {
    const { alias } = await addLink({ url: 'https://example.com/head' });
    const res = await server.visit(`/${alias}`, { method: 'HEAD' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://example.com/head');
  });

  it('answers unknown aliases and paths with an HTML 404 page', async () => {
    for (const path of ['/no-such-alias', '/a/b/c']) {
      const res = await server.visit(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.text).toContain('Not found');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('serves a landing page on the default domain root', async () => {
    const res = await server.visit('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Redirectory');
  });

  it('answers an expired link with an explanatory 410 page', async () => {
    const { alias } = await addLink({ url: 'https://example.com/old', expiry: '2020-01-01 00:00:00' });
    const res = await server.visit(`/${alias}`);
    expect(res.status).toBe(410);
    expect(res.text).toContain('expired');
    expect(res.text).toContain('2020-01-01 00:00:00');
    const live = await addLink({ url: 'https://example.com/live', expiry: '2999-01-01 00:00:00' });
    expect(await go(`/${live.alias}`)).toBe('https://example.com/live');
  });
});

describe('targeting', () => {
  let alias: string;
  beforeAll(async () => {
    ({ alias } = await addLink({
      url: 'https://example.com/default',
      devicetarget: [
        { device: 'iPhone', link: 'https://example.com/iphone' },
        { device: 'android', link: 'https://example.com/android' },
      ],
      languagetarget: [
        { language: 'fr', link: 'https://example.com/fr' },
        { language: 'pt-BR', link: 'https://example.com/pt-br' },
        { language: 'de-at', link: 'https://example.com/de-at' },
      ],
      geotarget: [
        { location: 'Germany', link: 'https://example.com/de' },
        { location: 'GB', link: 'https://example.com/gb' },
      ],
      parameters: [{ name: 'src', value: 'short' }],
    }));
  });
  const visit = (ua: string, lang: string, ip: string) => go(`/${alias}`, { 'user-agent': ua, 'accept-language': lang, 'x-forwarded-for': ip });

  it('matches devices case-insensitively, first of all', async () => {
    expect(await visit(IPHONE, 'fr', DE)).toBe('https://example.com/iphone?src=short');
    expect(await visit(ANDROID, 'fr', DE)).toBe('https://example.com/android?src=short');
  });

  it('then languages by q-value: exact code, then primary subtag', async () => {
    expect(await visit(WINDOWS, 'fr-CA,fr;q=0.9', DE)).toBe('https://example.com/fr?src=short');
    expect(await visit(WINDOWS, 'en;q=0.9, pt-BR;q=0.95', DE)).toBe('https://example.com/pt-br?src=short');
    expect(await visit(WINDOWS, 'pt-PT', US)).toBe('https://example.com/pt-br?src=short');
    expect(await visit(WINDOWS, 'de;q=0.8, fr;q=0.5', US)).toBe('https://example.com/de-at?src=short');
    expect(await visit(WINDOWS, 'fr;q=0, en', US)).toBe('https://example.com/default?src=short');
  });

  it('then the country of the client IP, by name or ISO code', async () => {
    expect(await visit(WINDOWS, 'en-US,en;q=0.9', DE)).toBe('https://example.com/de?src=short');
    expect(await visit(WINDOWS, 'en-US,en;q=0.9', GB)).toBe('https://example.com/gb?src=short');
    expect(await visit(WINDOWS, 'en-US,en;q=0.9', `${GB}, 10.0.0.1`)).toBe('https://example.com/gb?src=short');
  });

  it('falls back to the long URL', async () => {
    expect(await visit(WINDOWS, 'en-US,en;q=0.9', US)).toBe('https://example.com/default?src=short');
    expect(await go(`/${alias}`, { 'user-agent': '' })).toBe('https://example.com/default?src=short');
  });
});

describe('branded domains', () => {
  it('redirects the root and unknown aliases, serves its own links, and serves unknown hosts as the default domain', async () => {
    const domain = await server.call('POST', '/api/domain/add', {
      key,
      body: { domain: 'https://Go.Example.test', redirectroot: 'https://example.org/home', redirect404: 'https://example.org/missing' },
    });
    expect(domain.status, domain.text).toBe(200);
    const host = { host: 'go.example.test' };
    const { alias } = await addLink({ url: 'https://example.com/branded', domain: 'go.example.test', custom: 'brand-one' });
    expect(alias).toBe('brand-one');
    expect(await go('/brand-one', host)).toBe('https://example.com/branded');
    expect(await go('/brand-one', { host: 'GO.EXAMPLE.TEST' })).toBe('https://example.com/branded');
    expect(await go('/', host)).toBe('https://example.org/home');
    expect(await go('/nothing-here', host)).toBe('https://example.org/missing');
    expect((await server.visit('/brand-one')).status).toBe(404);

    await server.call('PUT', `/api/domain/${domain.body.id}/update`, { key, body: { redirectroot: '', redirect404: '' } });
    expect((await server.visit('/', { headers: host })).status).toBe(200);
    expect((await server.visit('/nothing-here', { headers: host })).status).toBe(404);

    // Issue 12 item 4: a host that is no branded domain is the default domain (it used to answer 404).
    expect((await server.visit('/', { headers: { host: 'unknown.example' } })).status).toBe(200);
    expect((await server.visit('/brand-one', { headers: { host: 'unknown.example' } })).status).toBe(404); // not on the default domain
  });
});

describe('cache invalidation', () => {
  it('shows updates, deletions and new aliases at once', async () => {
    expect((await server.visit('/fresh-alias')).status).toBe(404); // cached as missing
    const { id, alias } = await addLink({ url: 'https://example.com/v1', custom: 'fresh-alias' });
    for (let i = 0; i < 2; i++) expect(await go(`/${alias}`)).toBe('https://example.com/v1'); // cached from the second on
    const updated = await server.call('PUT', `/api/url/${id}/update`, {
      key,
      body: { url: 'https://example.com/v2', parameters: [{ name: 'v', value: '2' }] },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await go(`/${alias}`)).toBe('https://example.com/v2?v=2');
    expect(await go(`/${alias}`)).toBe('https://example.com/v2?v=2');
    await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/v2', custom: 'renamed-alias' } });
    expect((await server.visit(`/${alias}`)).status).toBe(404);
    for (let i = 0; i < 2; i++) expect(await go('/renamed-alias')).toBe('https://example.com/v2?v=2');
    await server.call('DELETE', `/api/url/${id}/delete`, { key });
    expect((await server.visit('/renamed-alias')).status).toBe(404);
  });

  it('keeps a link in memory from its second request on', async () => {
    const { id, alias } = await addLink({ url: 'https://example.com/once', custom: 'door-once' });
    const behindOurBack = (url: string) => server.ctx.db.updateTable('links').set({ long_url: url }).where('id', '=', id).execute();
    expect(await go(`/${alias}`)).toBe('https://example.com/once');
    await behindOurBack('https://example.com/twice'); // no invalidation: only a cached copy would hide it
    expect(await go(`/${alias}`)).toBe('https://example.com/twice'); // requested once: it was not kept
    await behindOurBack('https://example.com/thrice');
    expect(await go(`/${alias}`)).toBe('https://example.com/twice'); // requested twice: served from memory
  });

  it('re-checks expiry on every visit of a cached link', async () => {
    const soon = new Date(Date.now() + 1500).toISOString().slice(0, 19).replace('T', ' ');
    const { alias } = await addLink({ url: 'https://example.com/soon', expiry: soon });
    for (let i = 0; i < 2; i++) expect(await go(`/${alias}`)).toBe('https://example.com/soon');
    await new Promise((r) => setTimeout(r, 2100));
    expect((await server.visit(`/${alias}`)).status).toBe(410);
  });
});

describe('click recording', () => {
  it('counts each served human visit once; not HEAD, crawlers, bots, previews or missing links', async () => {
    const { id, alias } = await addLink({ url: 'https://example.com/counted', metatitle: 'Counted' });
    await go(`/${alias}`, { referer: 'https://www.facebook.com/' });
    await go(`/${alias}`, { 'user-agent': IPHONE });
    await server.visit(`/${alias}`, { method: 'HEAD', headers: { 'user-agent': WINDOWS } });
    await server.visit(`/${alias}`, { headers: { 'user-agent': 'facebookexternalhit/1.1' } });
    await server.visit(`/${alias}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
    await server.ctx.clicks.flush();
    const res = await server.call('GET', `/api/url/${id}`, { key });
    expect(res.body.data.clicks).toBe(2);
    // The visit's Referer and user agent reach the recorder as sent.
    expect(res.body.data.socialCount.facebook).toBe(1);
    expect(Object.keys(res.body.data.topOs).sort()).toEqual(['Windows', 'iOS']);
  });
});

describe('the lean front (cached links skip Fastify)', () => {
  it('answers a plain /{alias} (cached or not) exactly as the Fastify route answers it, and counts both', async () => {
    const { id, alias } = await addLink({
      url: 'https://example.com/lean?a=1',
      parameters: [{ name: 'b', value: '2' }],
      geotarget: [{ location: 'Germany', link: 'https://example.de/' }],
    });
    const headers = { 'user-agent': WINDOWS, 'x-forwarded-for': '5.9.0.1, 10.0.0.1' };
    const first = await server.visit(`/${alias}/`, { headers }); // not a plain alias path: Fastify's route answers
    const second = await server.visit(`/${alias}`, { headers }); // the lean front answers
    const query = await server.visit(`/${alias}?utm=x`, { headers });
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('https://example.de/?b=2'); // left-most forwarded address, as Fastify reads it
    for (const res of [second, query]) {
      expect(res.status).toBe(first.status);
      for (const name of ['location', 'cache-control', 'content-type', 'content-length']) expect(res.headers[name]).toEqual(first.headers[name]);
      expect(res.text).toBe(first.text);
    }
    await server.visit(`/${alias}`, { method: 'HEAD', headers }); // answered, not counted
    await server.ctx.clicks.flush();
    const stats = (await server.call('GET', `/api/url/${id}`, { key })).body.data;
    expect(stats.clicks).toBe(3);
    expect(stats.topCountries).toEqual({ Germany: 3 });
  });

  it('leaves reserved, encoded and unknown paths to Fastify', async () => {
    const api = await server.visit('/api');
    expect(api.status).toBeGreaterThanOrEqual(400);
    expect(api.status).toBeLessThan(500);
    expect((await server.visit('/not-there')).status).toBe(404);
    expect((await server.visit('/docs')).status).toBe(200);
  });
});
