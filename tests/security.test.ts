import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { qrCaches } from '../src/features/qr/cache.js';
import { SIZE_STEPS } from '../src/features/qr/serve.js';
import { accountState, seedAccount, type Seeded } from './helpers/account-state.js';
import { ensureBuilt } from './helpers/build.js';
import { send, startNode } from './helpers/cluster.js';
import { ENDPOINTS, fillPath, ITEM_RESOURCE, label, type Endpoint, type ItemType, type Param } from './helpers/endpoints.js';
import { processDb } from './helpers/process-db.js';
import { fetchImage } from './helpers/qr-images.js';
import { rawRequest } from './helpers/raw-http.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

/**
 * Hostile callers: what the feature tests do not already cover (see tests/redirect-password.test.ts,
 * tests/pages-public.test.ts and each feature's ownership tests for the rest).
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server?.close());

describe('QR images', () => {
  it('render at most one image per size step however many sizes are asked for', async () => {
    const res = await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: 'many sizes' } });
    const slug = new URL(res.body.link).pathname.split('/')[2]!;
    const sizes = Array.from({ length: 120 }, (_, i) => 40 + i * 17); // 40…2063, every one distinct
    const images = await Promise.all(sizes.map((size) => fetchImage(server, `/qr/${slug}?size=${size}`)));
    expect(images.every((image) => image.status === 200)).toBe(true);
    const distinct = new Set(images.map((image) => createHash('sha256').update(image.body).digest('hex')));
    expect(distinct.size).toBe(SIZE_STEPS.length);
    let cached = 0;
    qrCaches(server.ctx).images.deleteWhere((k) => (k.includes(slug) && cached++, false));
    expect(cached).toBe(SIZE_STEPS.length);
  });
});

describe('API documentation page', () => {
  it('sends its own CSP that forbids framing, nosniff and a referrer policy', async () => {
    for (const path of ['/docs', '/docs/', '/docs/static/swagger-initializer.js']) {
      const res = await server.visit(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-security-policy'], path).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      expect(res.headers['content-security-policy'], path).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('link password brute force', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  const guess = (on: TestServer, alias: string, password: string, ip: string) =>
    on.visit(`/${alias}`, { method: 'POST', headers: { ...FORM, 'x-forwarded-for': ip }, body: new URLSearchParams({ password }).toString() });

  it('checks at most 5 guesses per link and client (an IPv6 /64), even when they arrive all at once', async () => {
    const proxied = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
    try {
      const owner = (await proxied.user()).apiKey;
      await proxied.call('POST', '/api/url/add', { key: owner, body: { url: 'https://example.com/vault', custom: 'vault', password: 'correct horse' } });
      const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(proxied, 'vault', `wrong-${i}`, '198.51.100.9')));
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      expect((await guess(proxied, 'vault', 'correct horse', '198.51.100.9')).status).toBe(429);

      // An IPv6 client owns its whole /64: changing the interface part of the address starts no new count.
      for (let i = 1; i <= 5; i++) expect((await guess(proxied, 'vault', 'wrong', `2001:db8:7:1::${i}`)).status).toBe(401);
      expect((await guess(proxied, 'vault', 'correct horse', '2001:db8:7:1:abcd:ef01:2345:6789')).status).toBe(429);
      expect((await guess(proxied, 'vault', 'correct horse', '2001:db8:7:2::1')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const ACCOUNT_PASSWORD = 'account-pass-7f3a91';
const NEW_ACCOUNT_PASSWORD = 'account-pass-new-c02e';
const LINK_PASSWORD = 'link-pass-9b1d44';
const NEW_LINK_PASSWORD = 'link-pass-new-55e0';

describe('secrets', () => {
  it('keeps API keys only as SHA-256 hashes and passwords only as argon2id, and never shows them', async () => {
    const user = await createUser(server.ctx, { email: `secret${process.pid}@example.com`, password: ACCOUNT_PASSWORD });
    const k = user.apiKey;
    expect((await server.call('PUT', '/api/account/update', { key: k, body: { password: NEW_ACCOUNT_PASSWORD } })).status).toBe(200);
    const link = await server.call('POST', '/api/url/add', { key: k, body: { url: 'https://example.com/s', custom: 'secret-link', password: LINK_PASSWORD } });
    const other = await server.call('POST', '/api/url/add', { key: k, body: { url: 'https://example.com/t', custom: 'secret-two', password: LINK_PASSWORD } });
    expect((await server.call('PUT', `/api/url/${other.body.id}/update`, { key: k, body: { url: 'https://example.com/t', password: NEW_LINK_PASSWORD } })).status).toBe(200);
    const secrets = [k, ACCOUNT_PASSWORD, NEW_ACCOUNT_PASSWORD, LINK_PASSWORD, NEW_LINK_PASSWORD];

    // At rest: no table holds any of them; the hashes are what they should be.
    const db = server.ctx.db;
    for (const table of await db.introspection.getTables()) {
      const rows = JSON.stringify(await db.selectFrom(table.name as 'users').selectAll().execute());
      for (const secret of secrets) expect(rows.includes(secret), `${table.name} holds a secret`).toBe(false);
    }
    const row = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.api_key_hash).toBe(createHash('sha256').update(k).digest('hex'));
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const links = await db.selectFrom('links').select('password_hash').where('user_id', '=', user.id).execute();
    expect(links.map((l) => l.password_hash)).toEqual([expect.stringMatching(/^\$argon2id\$/), expect.stringMatching(/^\$argon2id\$/)]);

    // In answers: every list and detail, refusals, the public form and its cookie.
    const shown = [JSON.stringify(await accountState(server, k, user.id).then((state) => state.api))];
    shown.push((await server.call('PUT', '/api/account/update', { key: k, body: { password: 'short-1' } })).text);
    shown.push((await server.call('PUT', `/api/url/${link.body.id}/update`, { key: k, body: { url: 'https://example.com/s', password: 'too-long-2'.repeat(30) } })).text); // refused: over 256
    const wrongKey = await server.call('GET', '/api/account', { headers: { authorization: `Bearer ${k}x` } });
    expect(wrongKey.status).toBe(401);
    shown.push(wrongKey.text, JSON.stringify(wrongKey.headers));
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER };
    const wrong = await server.visit('/secret-link', { method: 'POST', headers: form, body: 'password=guess-secret-3' });
    const right = await server.visit('/secret-link', { method: 'POST', headers: form, body: `password=${LINK_PASSWORD}` });
    expect([wrong.status, right.status]).toEqual([401, 200]);
    shown.push(wrong.text, JSON.stringify(right.headers), right.text, (await server.visit('/secret-two', { headers: { 'user-agent': BROWSER } })).text);
    for (const text of shown) {
      for (const secret of [...secrets, 'short-1', 'tiny-2', 'guess-secret-3', row.api_key_hash, '$argon2']) expect(text).not.toContain(secret);
    }
  });

  it('writes no secret to the log, even at trace level', async () => {
    await ensureBuilt();
    const db = await processDb({ LOG_LEVEL: 'trace', RATE_LIMIT_MAX: '1000' });
    try {
      const user = await db.withCtx((ctx) => createUser(ctx, { email: 'logged@example.com', password: ACCOUNT_PASSWORD }));
      const node = await startNode('logs', db.env, { entry: 'dist', logLimit: 5_000_000 });
      const k = user.apiKey;
      const json = { 'content-type': 'application/json', authorization: `Bearer ${k}` };
      await send(node.url, 'GET', '/api/account', { key: k });
      await send(node.url, 'PUT', '/api/account/update', { key: k, body: { password: NEW_ACCOUNT_PASSWORD } });
      await send(node.url, 'PUT', '/api/account/update', { key: k, body: { password: 'short-1' } });
      await send(node.url, 'POST', '/api/url/add', { key: k, body: { url: 'https://example.com/l', custom: 'logged-link', password: LINK_PASSWORD } });
      await request(`${node.url}/api/url/add`, { method: 'POST', headers: json, body: `{"url":"https://example.com","password":"${NEW_LINK_PASSWORD}` }).then((r) => r.body.dump());
      await send(node.url, 'GET', '/api/account', { headers: { authorization: `Bearer ${k.slice(0, -1)}` } });
      const form = { host: TEST_HOST, 'content-type': 'application/x-www-form-urlencoded' };
      await request(`${node.url}/logged-link`, { method: 'POST', headers: form, body: 'password=guess-secret-3' }).then((r) => r.body.dump());
      const right = await request(`${node.url}/logged-link`, { method: 'POST', headers: form, body: `password=${LINK_PASSWORD}` });
      await right.body.dump();
      const cookie = String(right.headers['set-cookie']).split(';')[0]!;
      await request(`${node.url}/logged-link`, { headers: { host: TEST_HOST, cookie } }).then((r) => r.body.dump());
      await request(`${node.url}/logged-link`, { method: 'POST', headers: { ...form, 'content-type': 'application/json' }, body: `{"password":"${LINK_PASSWORD}` })
        .then((r) => r.body.dump());
      expect(await node.stop()).toBe(0);

      const log = node.output();
      expect(log).toContain('incoming request'); // trace really logs every request
      const keyHash = createHash('sha256').update(k).digest('hex');
      for (const secret of [k, k.slice(0, -1), keyHash, ACCOUNT_PASSWORD, NEW_ACCOUNT_PASSWORD, 'short-1', LINK_PASSWORD, NEW_LINK_PASSWORD, 'guess-secret-3', cookie.split('=')[1]!, '$argon2']) {
        expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
      }
    } finally {
      await db.close();
    }
  }, 90_000);
});

describe('tenant isolation', () => {
  interface Tenant {
    key: string;
    id: number;
    seeded: Seeded;
  }
  let me: Tenant;
  let them: Tenant;
  const tenant = async (): Promise<Tenant> => {
    const user = await server.user();
    return { key: user.apiKey, id: user.id, seeded: await seedAccount(server, user.apiKey) };
  };
  beforeAll(async () => {
    me = await tenant();
    them = await tenant();
  });

  type Role = 'own' | 'foreign' | 'unknown';
  /** Valid bodies, so that only the ids decide the answer. */
  const BODIES: Record<string, unknown> = {
    '/api/domain/:id/update': { redirectroot: '' }, '/api/splash/:id/update': { name: 'x' }, '/api/overlay/:id/update': { name: 'x' },
    '/api/bio/:id/update': { name: 'x' }, '/api/campaign/:id/update': { name: 'x' }, '/api/channel/:id/update': { name: 'x' },
    '/api/url/:id/update': { url: 'https://example.com/x' }, '/api/pixel/:id/update': { tag: 'x' }, '/api/qr/:id/update': { data: 'x' },
  };

  /** Every assignment of roles to an endpoint's id placeholders except all-own; item types are tried each. */
  function cases(endpoint: Endpoint): Array<{ path: string; what: string }> {
    const names = Object.keys(endpoint.params).filter((n) => endpoint.params[n] !== 'itemType');
    const types: Array<ItemType | undefined> = Object.values(endpoint.params).includes('itemType') ? ['links', 'bio', 'qr'] : [undefined];
    const out: Array<{ path: string; what: string }> = [];
    const roles: Role[] = ['own', 'foreign', 'unknown'];
    for (const type of types) {
      for (let n = 0; n < roles.length ** names.length; n++) {
        const assigned = names.map((_, i) => roles[Math.floor(n / roles.length ** i) % roles.length]!);
        if (assigned.every((r) => r === 'own')) continue;
        const values: Record<string, string | number> = type ? { type } : {};
        names.forEach((name, i) => {
          const param = endpoint.params[name] as Param;
          const resource = param === 'item' ? ITEM_RESOURCE[type!] : param;
          const role = assigned[i]!;
          values[name] = role === 'unknown' ? 999999 : (role === 'own' ? me : them).seeded[resource as keyof Seeded];
        });
        out.push({ path: fillPath(endpoint.path, values), what: `${label(endpoint)} ${type ?? ''} ${assigned.join('+')}` });
      }
    }
    return out;
  }

  it('answers 404 on every id-taking endpoint for every mix of own, foreign and unknown ids, and changes nothing', async () => {
    const mine = await accountState(server, me.key, me.id);
    const theirs = await accountState(server, them.key, them.id);
    let checked = 0;
    for (const endpoint of ENDPOINTS.filter((e) => Object.keys(e.params).length > 0)) {
      for (const { path, what } of cases(endpoint)) {
        const body = BODIES[endpoint.path];
        const res = await server.call(endpoint.method, path, { key: me.key, ...(body ? { body } : {}) });
        expect(res.status, what).toBe(404);
        expect(res.body, what).toEqual({ error: 1, message: expect.stringMatching(/not found/), code: 'not_found' });
        expect(await accountState(server, them.key, them.id), what).toEqual(theirs);
        expect(await accountState(server, me.key, me.id), what).toEqual(mine);
        checked++;
      }
    }
    expect(checked).toBe(74); // 21 single-id endpoints × 2, campaign assign 8, channel assign 3 types × 8
  });

  it('refuses another account\'s pixels, campaign, channel, splash page, overlay and domain named in a link', async () => {
    const domains = await server.call('GET', '/api/domains', { key: them.key });
    const theirHost = new URL(domains.body.data.domains[0].domain).host;
    const url = 'https://example.com/ref';
    const refs = [
      { pixels: [them.seeded.pixel] }, { pixels: [me.seeded.pixel, them.seeded.pixel] }, { campaign: them.seeded.campaign },
      { channel: them.seeded.channel }, { type: String(them.seeded.splash) }, { type: `overlay-${them.seeded.overlay}` }, { domain: theirHost },
    ];
    const mine = await accountState(server, me.key, me.id);
    const theirs = await accountState(server, them.key, them.id);
    for (const ref of refs) {
      const add = await server.call('POST', '/api/url/add', { key: me.key, body: { url, ...ref } });
      const update = await server.call('PUT', `/api/url/${me.seeded.link}/update`, { key: me.key, body: { url, ...ref } });
      for (const res of ref.type?.startsWith('overlay') ? [add] : [add, update]) {
        expect(res.status, JSON.stringify(ref)).toBe(400);
        expect(res.body.error).toBe(1);
      }
    }
    expect(await accountState(server, me.key, me.id)).toEqual(mine);
    expect(await accountState(server, them.key, them.id)).toEqual(theirs);
    // Nothing of theirs shows in any of my lists or details.
    const shown = JSON.stringify(mine.api);
    for (const alias of [them.seeded.linkAlias, them.seeded.bioAlias, them.seeded.qrSlug, them.seeded.campaignSlug, theirHost]) expect(shown).not.toContain(alias);
  });
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
      [['Authorization', `Bearer ${k}`]], [['AUTHORIZATION', `bearer ${k}`]], [['authorization', `BEARER  ${k} `]],
      [['aUtHoRiZaTiOn', `Token ${k}`]], [['Authorization', k]],
    ];
    const admitted = await Promise.all(spellings.map(raw));
    expect(admitted.map((r) => [r.status, r.headers['x-ratelimit-remaining']]).sort()).toEqual(
      [[200, '0'], [200, '1'], [200, '2'], [200, '3'], [200, '4']]);
    // Spent. Another spelling, a second Authorization header (with another valid key, before or after), a
    // forwarded address or a comma-joined list never buys a request with this key.
    const attempts: Array<Array<[string, string]>> = [
      [['authorization', `bearer ${k}`]],
      [['Authorization', `Bearer ${k}`], ['Authorization', `Bearer ${other}`]],
      [['Authorization', `Bearer ${k}`], ['X-Forwarded-For', '203.0.113.7']],
      [['Authorization', `Bearer ${k}, Bearer ${other}`]],
      [['Authorization', `Bearer ${k}`], ['X-Api-Key', other]],
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
      const res = await raw([['Authorization', 'Bearer wrong'], ['X-Forwarded-For', forwarded], ['X-Real-IP', forwarded]]);
      expect(res.status, forwarded).toBe(429);
    }
    expect((await raw([])).status).toBe(429);
  });
});

describe('user-supplied URLs', () => {
  it('are never fetched by the server: links, targets, images, logos, avatars, buttons and domain redirects', async () => {
    const hits: string[] = [];
    const canary: Server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    canary.listen(0, '127.0.0.1');
    await once(canary, 'listening');
    const address = canary.address();
    const at = (path: string) => `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/${path}`;
    try {
      const k = (await server.user()).apiKey;
      const add = async (path: string, body: Record<string, unknown>) => {
        const res = await server.call('POST', path, { key: k, body });
        expect(res.status, `${path} ${res.text}`).toBe(200);
        return res.body;
      };
      const domain = `fetch${process.pid}.example.org`;
      await add('/api/domain/add', { domain: `https://${domain}`, redirectroot: at('root'), redirect404: at('404') });
      const splash = await add('/api/splash/add', { name: 'canary', image: at('splash.png') });
      const overlay = await add('/api/overlay/add', { type: 'message', name: 'canary', button_link: at('button') });
      const pixel = await add('/api/pixel/add', { type: 'analyticspixel', name: 'canary', tag: 'G-1' });
      const campaign = await add('/api/campaign/add', { name: 'canary', slug: `canary-${process.pid}`, public: true });
      const common = {
        url: at('long'), metaimage: at('meta.png'), campaign: campaign.id,
        devicetarget: [{ device: 'iphone', link: at('device') }], languagetarget: [{ language: 'fr', link: at('language') }],
        geotarget: [{ location: 'germany', link: at('geo') }],
      };
      const aliases: string[] = [];
      for (const [n, extra] of [{}, { type: 'frame' }, { type: String(splash.id) }, { type: `overlay-${overlay.id}` }, { pixels: [pixel.id] }].entries()) {
        aliases.push((await add('/api/url/add', { ...common, ...extra, custom: `canary-${process.pid}-${n}` })).shorturl.split('/').pop());
      }
      await add('/api/bio/add', { alias: `canary-bio-${process.pid}`, name: 'canary', avatar: at('avatar.png'), links: [{ title: 'x', url: at('bio-link') }] });
      const codes = [await add('/api/qr/add', { type: 'link', data: { url: at('qr') }, logo: at('logo.png') })];
      codes.push(await add('/api/qr/add', { type: 'text', data: 'canary', logo: at('logo2.png') }));

      const visits = [...aliases, `canary-bio-${process.pid}`, `r/canary-${process.pid}`, new URL(campaign.list).pathname.slice(1)];
      for (const code of codes) {
        const path = new URL(code.link).pathname.slice(1);
        visits.push(path, `${path}?format=svg`, `${path}?size=1024`, `${path}/scan`);
      }
      for (const path of visits) {
        for (const agent of [BROWSER, 'facebookexternalhit/1.1', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)']) {
          expect((await server.visit(`/${path}`, { headers: { 'user-agent': agent, 'accept-language': 'fr' } })).status).toBeLessThan(500);
        }
      }
      for (const path of ['/', '/nothing-here']) await server.visit(path, { headers: { host: domain } });
      await accountState(server, k, (await server.call('GET', '/api/account', { key: k })).body.data.id);
      await server.ctx.clicks.flush();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hits).toEqual([]);
    } finally {
      canary.close();
    }
  });

  const NOT_HTTP = ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd', 'ftp://example.com/x', '//evil.example/x', 'vbscript:msgbox(1)', 'blob:https://example.com/x', 'about:blank', 'mailto:a@example.com'];

  it('must be http(s) in every field that takes one, on add and update', async () => {
    const k = (await server.user()).apiKey;
    const userId = (await server.call('GET', '/api/account', { key: k })).body.data.id;
    const link = (await server.call('POST', '/api/url/add', { key: k, body: { url: 'https://example.com/ok' } })).body.id;
    const domain = (await server.call('POST', '/api/domain/add', { key: k, body: { domain: `https://schemes${process.pid}.example.org` } })).body.id;
    const ok = 'https://example.com/ok';
    let n = 0;
    const fields: Array<[string, string, (bad: string) => Record<string, unknown>]> = [
      ['POST', '/api/url/add', (bad) => ({ url: bad })],
      ['PUT', `/api/url/${link}/update`, (bad) => ({ url: bad })],
      ['POST', '/api/url/add', (bad) => ({ url: ok, geotarget: [{ location: 'germany', link: bad }] })],
      ['POST', '/api/url/add', (bad) => ({ url: ok, devicetarget: [{ device: 'iphone', link: bad }] })],
      ['PUT', `/api/url/${link}/update`, (bad) => ({ url: ok, languagetarget: [{ language: 'fr', link: bad }] })],
      ['POST', '/api/url/add', (bad) => ({ url: ok, metaimage: bad })],
      ['POST', '/api/splash/add', (bad) => ({ name: 's', image: bad })],
      ['POST', '/api/overlay/add', (bad) => ({ type: 'message', name: 'o', button_link: bad })],
      ['POST', '/api/bio/add', (bad) => ({ alias: `schemes-${++n}`, name: 'b', avatar: bad })],
      ['POST', '/api/bio/add', (bad) => ({ alias: `schemes-${++n}`, name: 'b', links: [{ title: 't', url: bad }] })],
      ['POST', '/api/domain/add', (bad) => ({ domain: `https://s${++n}.example.org`, redirectroot: bad })],
      ['PUT', `/api/domain/${domain}/update`, (bad) => ({ redirect404: bad })],
      ['POST', '/api/qr/add', (bad) => ({ type: 'link', data: { url: bad } })],
      ['POST', '/api/qr/add', (bad) => ({ type: 'text', data: 'x', logo: bad })],
    ];
    const before = await accountState(server, k, userId);
    for (const [method, path, body] of fields) {
      for (const bad of NOT_HTTP) {
        const res = await server.call(method, path, { key: k, body: body(bad) });
        expect(res.status, `${method} ${path} ${JSON.stringify(body(bad))}`).toBe(400);
      }
    }
    expect(await accountState(server, k, userId)).toEqual(before);
  });

  it('of our own API, docs or admin pages are linked, never framed, however they are spelled', async () => {
    const k = (await server.user()).apiKey;
    for (const url of ['HTTP://REDIRECTORY.TEST/API/account', 'http://redirectory.test:80/docs', 'http://redirectory.test/%61%70%69/account',
      'http://redirectory.test//api/account', 'http://Redirectory.Test/Docs/', 'http://redirectory.test/admin?x=1', 'http://redirectory.test./api/account',
      'http://redirectory.test/./api/account', 'http://redirectory.test/x/../api/account']) {
      const made = await server.call('POST', '/api/url/add', { key: k, body: { url, type: 'frame' } });
      expect(made.status, url).toBe(200);
      const page = await server.visit(new URL(made.body.shorturl).pathname, { headers: { 'user-agent': BROWSER } });
      expect(page.status, url).toBe(200);
      expect(page.text, url).not.toContain('<iframe');
      expect(page.text, url).toContain('cannot be shown inside a frame');
    }
  });
});
