import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneActivity } from '../src/features/account/activity/service.js';
import { setPassword } from '../src/features/account/service.js';
import { agentFamily } from '../src/lib/agent-family.js';
import { ipPrefix } from '../src/lib/ip-prefix.js';
import { startServer, type TestServer } from './helpers/server.js';
import { cookieFrom, dashboard, PASSWORD } from './helpers/session.js';
import { UA } from './helpers/user-agents.js';

const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const CURL = 'curl/8.5.0';

// TRUST_PROXY, so that each request can name its client address (X-Forwarded-For from the loopback).
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
});
afterAll(() => server.close());

const from = (ip: string, ua: string) => ({ 'x-forwarded-for': ip, 'user-agent': ua });
const activity = async (key: string, query = '') => {
  const res = await server.call('GET', `/api/account/activity${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { result: number; activity: Array<Record<string, string>> };
};

describe('the account activity log', () => {
  it('records sign-ins, failures, changes, keys, imports, exports and sign-outs with the network and browser family only', async () => {
    const user = await server.user();
    await setPassword(server.ctx, user.email, PASSWORD);
    const browser = from('203.0.113.77', MAC_CHROME);
    expect(
      (await dashboard(server, 'POST', '/api/session', { body: { email: user.email, password: 'wrong password' }, headers: browser })).status,
    ).toBe(401);
    const session = await signInFrom(user.email, browser);
    const tool = from('2001:db8:1234:5678::9', CURL);
    expect(
      (await server.call('PUT', '/api/account/update', { key: user.apiKey, headers: tool, body: { password: 'another long one' } })).status,
    ).toBe(200);
    const made = await server.call('POST', '/api/key/add', { key: user.apiKey, headers: tool, body: { name: 'backup', scopes: ['*'] } });
    await server.call('PUT', '/api/account/update', { key: made.body.key, headers: tool, body: { email: `x${user.email}` } });
    await server.call('GET', '/api/urls/export', { key: made.body.key, headers: tool });
    const job = await server.call('POST', '/api/urls/import', {
      key: made.body.key,
      headers: { ...tool, 'content-type': 'text/csv' },
      rawBody: 'longurl\nhttps://example.com/\n',
    });
    expect(job.status, job.text).toBe(200);
    await server.call('DELETE', `/api/key/${made.body.id}/delete`, { key: user.apiKey, headers: tool });
    // The password change by key ended the first session: its sign-out is refused and not recorded.
    expect((await dashboard(server, 'DELETE', '/api/session', { session, headers: browser })).status).toBe(401);
    const again = await signInFrom(`x${user.email}`, browser, 'another long one');
    await dashboard(server, 'DELETE', '/api/session', { session: again, headers: browser });
    const third = await signInFrom(`x${user.email}`, browser, 'another long one');
    await dashboard(server, 'DELETE', '/api/sessions', { session: third, headers: browser });

    const net = { ip: '203.0.113.0/24', agent: 'Chrome on macOS' };
    const cli = { ip: '2001:db8:1234::/48', agent: 'curl' };
    const { result, activity: entries } = await activity(user.apiKey);
    expect(entries.map(({ date: _date, ...rest }) => rest)).toEqual([
      { event: 'signout_all', via: 'session', ...net },
      { event: 'signin', via: 'session', ...net },
      { event: 'signout', via: 'session', ...net },
      { event: 'signin', via: 'session', ...net },
      { event: 'key_revoked', via: 'default', ...cli },
      { event: 'import', via: 'backup', ...cli },
      { event: 'export', via: 'backup', ...cli },
      { event: 'email_changed', via: 'backup', ...cli },
      { event: 'key_created', via: 'default', ...cli },
      { event: 'password_changed', via: 'default', ...cli },
      { event: 'signin', via: 'session', ...net },
      { event: 'signin_failed', via: 'session', ...net },
    ]);
    expect(result).toBe(12);
    expect(entries[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const rows = JSON.stringify(await server.ctx.db.selectFrom('account_activity').selectAll().execute());
    for (const raw of ['203.0.113.77', '5678', 'Chrome/120', '8.5.0', 'Macintosh']) expect(rows).not.toContain(raw);
  });

  async function signInFrom(email: string, headers: Record<string, string>, password = PASSWORD) {
    const res = await dashboard(server, 'POST', '/api/session', { body: { email, password }, headers });
    expect(res.status, res.text).toBe(200);
    return { cookie: cookieFrom(res), csrf: res.body.data.csrf as string, email };
  }

  it('pages newest first, 20 by default and at most 100, and shows each account only its own', async () => {
    const [user, other] = [await server.user(), await server.user()];
    for (let i = 0; i < 25; i++) await server.call('GET', '/api/urls/export', { key: user.apiKey });
    expect((await activity(other.apiKey)).result).toBe(0);
    const first = await activity(user.apiKey);
    expect([first.result, first.activity.length]).toEqual([25, 20]);
    const second = await activity(user.apiKey, '?limit=10&page=3');
    expect([second.result, second.activity.length]).toEqual([25, 5]);
    expect((await activity(user.apiKey, '?limit=1000')).activity).toHaveLength(25);
    const bad = await server.call('GET', '/api/account/activity?limit=ten', { key: user.apiKey });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_field']);
  });

  it('needs account:read from a key', async () => {
    const user = await server.user();
    const links = await server.call('POST', '/api/key/add', { key: user.apiKey, body: { name: 'links', scopes: ['links:read'] } });
    const res = await server.call('GET', '/api/account/activity', { key: links.body.key });
    expect([res.status, res.body.code]).toEqual([403, 'scope_missing']);
    const reader = await server.call('POST', '/api/key/add', { key: user.apiKey, body: { name: 'audit', scopes: ['account:read'] } });
    expect((await activity(reader.body.key)).activity.map((e) => [e.event, e.via])).toEqual([
      ['key_created', 'default'],
      ['key_created', 'default'],
    ]);
  });

  it('records only what an update really changed', async () => {
    const user = await server.user();
    const same = await server.call('PUT', '/api/account/update', { key: user.apiKey, body: { email: user.email } });
    expect(same.status, same.text).toBe(200);
    expect((await activity(user.apiKey)).activity).toEqual([]);
    await server.call('PUT', '/api/account/update', { key: user.apiKey, body: { email: user.email, password: 'a new long password' } });
    expect((await activity(user.apiKey)).activity.map((e) => e.event)).toEqual(['password_changed']);
  });

  it('forgets entries older than ACTIVITY_LOG_DAYS', async () => {
    const user = await server.user();
    const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
    await server.ctx.db
      .insertInto('account_activity')
      .values(
        [91, 89].map((days) => ({
          user_id: user.id,
          event: 'signin',
          via: 'session',
          ip: '',
          agent: '',
          created_at: at(days),
        })),
      )
      .execute();
    expect(await pruneActivity(server.ctx, 90)).toBeGreaterThanOrEqual(1);
    expect((await activity(user.apiKey)).result).toBe(1);
  });
});

describe('key commands of the CLI', () => {
  const run = promisify(execFile);
  const cli = async (...args: string[]) =>
    JSON.parse(
      (
        await run('npx', ['tsx', 'src/cli/main.ts', ...args], {
          cwd: join(import.meta.dirname, '..'),
          env: { ...process.env, DATABASE_URL: server.config.DATABASE_URL, BASE_URL: server.config.BASE_URL, LOG_LEVEL: 'silent' },
        })
      ).stdout,
    );

  it('adds a scoped key shown once, lists keys without secrets and revokes one, recorded as cli', async () => {
    const user = await server.user();
    const made = await cli('key', 'add', user.email, '--name', 'deploy', '--scopes', 'links:read,qr:read', '--expires', '2099-01-01 00:00:00');
    expect(made).toEqual({ id: expect.any(Number), key: expect.any(String) });
    expect((await server.call('GET', '/api/urls', { key: made.key })).status).toBe(200);
    expect((await server.call('POST', '/api/url/add', { key: made.key, body: { url: 'https://example.com/' } })).status).toBe(403);
    const listed = await cli('key', 'list', user.email);
    expect(listed.map((k: { name: string; scopes: string[]; expires: string }) => [k.name, k.scopes, k.expires])).toEqual([
      ['default', ['*'], ''],
      ['deploy', ['links:read', 'qr:read'], '2099-01-01 00:00:00'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.key);
    expect(await cli('key', 'revoke', user.email, String(made.id))).toEqual({ revoked: made.id });
    expect((await server.call('GET', '/api/urls', { key: made.key })).status).toBe(401);
    expect((await activity(user.apiKey)).activity.map((e) => [e.event, e.via, e.ip, e.agent])).toEqual([
      ['key_revoked', 'cli', '', ''],
      ['key_created', 'cli', '', ''],
    ]);
  }, 60_000);
});

describe('a failed record', () => {
  it('does not fail the request that caused it', async () => {
    const broken = await startServer({ RATE_LIMIT_MAX: '100000' });
    try {
      const user = await broken.user();
      await sql`drop table account_activity`.execute(broken.ctx.db);
      expect((await broken.call('PUT', '/api/account/update', { key: user.apiKey, body: { password: 'another long one' } })).status).toBe(200);
      expect((await broken.call('POST', '/api/key/add', { key: user.apiKey, body: { name: 'x', scopes: ['*'] } })).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

describe('what the log keeps of an address and a User-Agent', () => {
  it('keeps an IPv4 /24 or an IPv6 /48, nothing of anything else', () => {
    expect(
      ['203.0.113.77', '::ffff:198.51.100.4', '2001:db8:1234:5678::1', '2001:DB8::1', 'fe80::1%eth0', '::1', '::ffff:10.0.0.1.5', 'x', ''].map(
        ipPrefix,
      ),
    ).toEqual(['203.0.113.0/24', '198.51.100.0/24', '2001:db8:1234::/48', '2001:db8::/48', 'fe80::/48', '::/48', '', '', '']);
  });

  it("keeps a browser and OS family or a tool's, never versions", () => {
    expect(
      [MAC_CHROME, UA.iphone, UA.windowsFirefox, CURL, 'python-requests/2.31.0', 'Go-http-client/1.1', 'MyInternalTool-42/1.0', ''].map(agentFamily),
    ).toEqual(['Chrome on macOS', 'Mobile Safari on iOS', 'Firefox on Windows', 'curl', 'Python Requests', 'Go', '', '']);
  });
});
