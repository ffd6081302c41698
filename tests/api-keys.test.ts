import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../src/lib/time.js';
import { SCOPES } from '../src/lib/scopes.js';
import { scopeOfRoute } from '../src/http/scopes.js';
import { startServer, type TestServer } from './helpers/server.js';
import { dashboard, signedInUser } from './helpers/session.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const inSeconds = (s: number) => formatTimestamp(new Date(Date.now() + s * 1000));

/** A new key of `owner` (a key) with `scopes`; its secret. */
async function keyWith(owner: string, scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await server.call('POST', '/api/key/add', { key: owner, body: { name: `k${Math.random()}`, scopes, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.body.key;
}

describe('API keys', () => {
  it('lists the registration key as "default" with every scope, never a secret', async () => {
    const user = await server.user();
    const res = await server.call('GET', '/api/keys', { key: user.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      error: 0,
      data: {
        result: 1,
        keys: [
          {
            id: expect.any(Number),
            name: 'default',
            scopes: ['*'],
            created: expect.stringMatching(TIMESTAMP),
            lastUsed: expect.stringMatching(TIMESTAMP),
            expires: '',
          },
        ],
      },
    });
    expect(res.text).not.toContain(user.apiKey);
  });

  it('makes a key shown once, listed oldest first, which works for its scopes and is refused the rest with 403 naming the scope', async () => {
    const user = await server.user();
    const made = await server.call('POST', '/api/key/add', {
      key: user.apiKey,
      body: { name: 'zapier', scopes: ['links:read', 'links:write', 'links:read'] },
    });
    expect(made.body).toEqual({ error: 0, id: expect.any(Number), key: expect.any(String) });
    const key = made.body.key as string;
    const list = (await server.call('GET', '/api/keys', { key: user.apiKey })).body.data.keys;
    expect(list.map((k: { name: string; scopes: string[]; lastUsed: string }) => [k.name, k.scopes, k.lastUsed])).toEqual([
      ['default', ['*'], expect.stringMatching(TIMESTAMP)],
      ['zapier', ['links:read', 'links:write'], ''],
    ]);
    expect(JSON.stringify(list)).not.toContain(key);
    expect((await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/scoped' } })).status).toBe(200);
    expect((await server.call('GET', '/api/urls', { key })).status).toBe(200);
    for (const [method, path, scope] of [
      ['GET', '/api/domains', 'domains:read'],
      ['GET', '/api/account', 'account:read'],
      ['POST', '/api/qr/add', 'qr:write'],
      ['GET', '/api/keys', 'account:write'],
      ['PUT', '/api/account/update', 'account:write'],
      ['GET', '/api/visits', 'stats:read'],
      ['GET', '/api/bio', 'pages:read'],
    ]) {
      const res = await server.call(method!, path!, { key, body: method === 'GET' ? undefined : {} });
      expect(res.status, path).toBe(403);
      expect(res.body, path).toEqual({ error: 1, code: 'scope_missing', message: expect.stringContaining(scope!) });
    }
  });

  it('writes lastUsed at most once a minute per key', async () => {
    const user = await server.user();
    const lastUsed = async () =>
      (await server.ctx.db.selectFrom('api_keys').select('last_used_at').where('user_id', '=', user.id).executeTakeFirstOrThrow()).last_used_at;
    const setLastUsed = (at: string) => server.ctx.db.updateTable('api_keys').set({ last_used_at: at }).where('user_id', '=', user.id).execute();
    await setLastUsed(inSeconds(-30));
    const recent = await lastUsed();
    await server.call('GET', '/api/urls', { key: user.apiKey });
    expect(await lastUsed()).toBe(recent);
    await setLastUsed(inSeconds(-61));
    await server.call('GET', '/api/urls', { key: user.apiKey });
    expect(Date.parse(`${await lastUsed()}Z`)).toBeGreaterThan(Date.now() - 5000);
  });

  it('tells read from write: a read key reads and cannot write', async () => {
    const user = await server.user();
    const reader = await keyWith(user.apiKey, ['campaigns:read', 'account:read']);
    expect((await server.call('GET', '/api/campaigns', { key: reader })).status).toBe(200);
    expect((await server.call('GET', '/api/account', { key: reader })).status).toBe(200);
    expect((await server.call('POST', '/api/account', { key: reader })).status).toBe(200); // answers like GET
    const write = await server.call('POST', '/api/campaign/add', { key: reader, body: { name: 'x' } });
    expect([write.status, write.body.code]).toEqual([403, 'scope_missing']);
    expect(write.body.message).toContain('campaigns:write');
  });

  it('a full key made with * works in every area', async () => {
    const user = await server.user();
    const full = await keyWith(user.apiKey, ['*']);
    for (const path of [
      '/api/account',
      '/api/urls',
      '/api/qr',
      '/api/domains',
      '/api/campaigns',
      '/api/channels',
      '/api/pixels',
      '/api/bio',
      '/api/splash',
      '/api/overlay',
      '/api/visits',
      '/api/keys',
      '/api/account/activity',
    ]) {
      expect((await server.call('GET', path, { key: full })).status, path).toBe(200);
    }
    expect((await server.call('POST', '/api/url/add', { key: full, body: { url: 'https://example.com/full' } })).status).toBe(200);
  });

  it("revokes a key at once; another account's key id answers 404 and stays working", async () => {
    const [me, them] = [await server.user(), await server.user()];
    const theirs = await server.call('POST', '/api/key/add', { key: them.apiKey, body: { name: 'ci', scopes: ['links:read'] } });
    const foreign = await server.call('DELETE', `/api/key/${theirs.body.id}/delete`, { key: me.apiKey });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    expect((await server.call('GET', '/api/urls', { key: theirs.body.key })).status).toBe(200);
    const revoked = await server.call('DELETE', `/api/key/${theirs.body.id}/delete`, { key: them.apiKey });
    expect(revoked.body).toEqual({ error: 0, message: expect.any(String) });
    const after = await server.call('GET', '/api/urls', { key: theirs.body.key });
    expect([after.status, after.body.code]).toEqual([401, 'key_required']);
    expect((await server.call('DELETE', `/api/key/${theirs.body.id}/delete`, { key: them.apiKey })).status).toBe(404);
  });

  it('stops an expired key like an unknown one, and refuses an expiry in the past', async () => {
    const user = await server.user();
    const past = await server.call('POST', '/api/key/add', {
      key: user.apiKey,
      body: { name: 'old', scopes: ['*'], expires: '2001-01-01 00:00:00' },
    });
    expect([past.status, past.body.code]).toEqual([400, 'invalid_field']);
    const soon = await keyWith(user.apiKey, ['links:read'], { expires: inSeconds(3) });
    expect((await server.call('GET', '/api/urls', { key: soon })).status).toBe(200);
    await sleep(3100);
    const res = await server.call('GET', '/api/urls', { key: soon });
    expect([res.status, res.body.code]).toEqual([401, 'key_required']);
  });

  it('a key cannot mint scopes it lacks, nor a key that outlives it; a full key can mint anything', async () => {
    const user = await server.user();
    const manager = await keyWith(user.apiKey, ['account:write', 'links:read']);
    for (const scopes of [['*'], ['links:write'], ['links:read', 'qr:read']]) {
      const res = await server.call('POST', '/api/key/add', { key: manager, body: { name: 'escalate', scopes } });
      expect([res.status, res.body.code], scopes.join()).toEqual([403, 'scope_missing']);
    }
    await keyWith(manager, ['links:read']);
    const expiring = await keyWith(user.apiKey, ['account:write'], { expires: inSeconds(3600) });
    const longer = await server.call('POST', '/api/key/add', { key: expiring, body: { name: 'forever', scopes: ['account:write'] } });
    expect([longer.status, longer.body.code]).toEqual([400, 'invalid_field']);
    await keyWith(expiring, ['account:write'], { expires: inSeconds(60) });
    await keyWith(
      user.apiKey,
      SCOPES.filter((s) => s !== '*'),
    );
  });

  it('refuses unknown or no scopes, bad names and a name already used', async () => {
    const user = await server.user();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'x', scopes: ['links:delete'] }, 400, 'scope_invalid'],
      [{ name: 'x', scopes: [] }, 400, 'scope_invalid'],
      [{ name: 'x', scopes: 'links:read' }, 400, 'invalid_field'],
      [{ name: '', scopes: ['*'] }, 400, 'invalid_field'],
      [{ name: 'n'.repeat(65), scopes: ['*'] }, 400, 'invalid_field'],
      [{ name: 'default', scopes: ['*'] }, 409, 'key_name_taken'],
      [{ name: 'x', scopes: ['*'], expires: 'tomorrow' }, 400, 'invalid_field'],
    ];
    for (const [body, status, code] of cases) {
      const res = await server.call('POST', '/api/key/add', { key: user.apiKey, body });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await server.call('GET', '/api/keys', { key: user.apiKey })).body.data.result).toBe(1);
  });

  it('lets a dashboard session manage keys; POST /api/account/key replaces only the key "default"', async () => {
    const user = await signedInUser(server);
    const made = await dashboard(server, 'POST', '/api/key/add', { session: user, body: { name: 'ci', scopes: ['stats:read'], expires: null } });
    expect(made.status, made.text).toBe(200);
    expect((await dashboard(server, 'GET', '/api/keys', { session: user })).body.data.result).toBe(2);
    const rotated = await dashboard(server, 'POST', '/api/account/key', { session: user });
    expect((await server.call('GET', '/api/account', { key: user.apiKey })).status).toBe(401);
    expect((await server.call('GET', '/api/visits', { key: made.body.key })).status).toBe(200);
    const keys = (await server.call('GET', '/api/keys', { key: rotated.body.data.apiKey })).body.data.keys;
    expect(keys.map((k: { name: string; scopes: string[] }) => [k.name, k.scopes])).toEqual([
      ['ci', ['stats:read']],
      ['default', ['*']],
    ]);
    expect((await dashboard(server, 'DELETE', `/api/key/${made.body.id}/delete`, { session: user })).status).toBe(200);
  });
});

describe('every API route is scoped', () => {
  it('refuses to register a route whose scope it cannot tell', () => {
    const route = (method: string, tags: string[], config = {}) => ({ method, url: '/api/new', schema: { tags } as object, config });
    expect(() => scopeOfRoute(route('POST', []))).toThrow(/no API key scope/);
    expect(() => scopeOfRoute(route('GET', ['links', 'qr']))).toThrow(/no API key scope/);
    expect(() => scopeOfRoute(route('GET', ['public']))).toThrow(/no API key scope/);
    expect(scopeOfRoute(route('DELETE', ['overlays']))).toBe('pages:write');
    expect(scopeOfRoute(route('HEAD', ['stats']))).toBe('stats:read');
    expect(scopeOfRoute(route('POST', [], { scope: 'account:read' }))).toBe('account:read');
    expect(scopeOfRoute(route('POST', [], { auth: 'session' }))).toBeNull();
  });

  it('names the scope an API key needs on every operation of the OpenAPI document, or that no key reaches it', async () => {
    const doc = JSON.parse((await server.visit('/api/openapi.json')).text);
    const seen: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      if (!path.startsWith('/api/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        const scope = op['x-scope'] as string | undefined;
        if (scope) expect(SCOPES, `${method} ${path}`).toContain(scope);
        else expect(['session', 'none'], `${method} ${path}`).toContain(op['x-auth']);
        seen.push(`${method} ${path} ${scope ?? op['x-auth']}`);
      }
    }
    expect(seen).toEqual(
      expect.arrayContaining([
        'get /api/urls links:read',
        'post /api/url/add links:write',
        'post /api/account account:read',
        'get /api/keys account:write',
        'put /api/account/update account:write',
        'post /api/account/key session',
        'get /api/url/{id}/clicks stats:read',
        'post /api/bio/add pages:write',
        'get /api/overlay pages:read',
        'get /api/account/activity account:read',
        'post /api/session none',
      ]),
    );
  });
});
