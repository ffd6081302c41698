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
      expect((await guess(proxied, 'vault', 'correct horse', '2001:db8:7:2::1')).status).toBe(303);
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
    shown.push((await server.call('PUT', `/api/url/${link.body.id}/update`, { key: k, body: { url: 'https://example.com/s', password: 'tiny-2' } })).text);
    const wrongKey = await server.call('GET', '/api/account', { headers: { authorization: `Bearer ${k}x` } });
    expect(wrongKey.status).toBe(401);
    shown.push(wrongKey.text, JSON.stringify(wrongKey.headers));
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER };
    const wrong = await server.visit('/secret-link', { method: 'POST', headers: form, body: 'password=guess-secret-3' });
    const right = await server.visit('/secret-link', { method: 'POST', headers: form, body: `password=${LINK_PASSWORD}` });
    expect([wrong.status, right.status]).toEqual([401, 303]);
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
        expect(res.body, what).toEqual({ error: 1, message: expect.stringMatching(/not found/) });
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
