import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../src/features/account/service.js';
import { readSetupToken } from '../src/features/session/repo.js';
import { SIGNIN_LIMITS } from '../src/features/session/sign-in.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';
import { cookieFrom, dashboard, PASSWORD, signedInUser, signIn, type Session } from './helpers/session.js';

/** The CLI as a person runs it, the password piped to its stdin. */
function cli(args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'npx',
      ['tsx', 'src/cli/main.ts', ...args],
      {
        env: { ...process.env, DATABASE_URL: server.config.DATABASE_URL, BASE_URL: server.config.BASE_URL },
      },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
    child.stdin!.end(input);
  });
}
const iso = (ms: number) => new Date(ms).toISOString();

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server.close());

const whoami = (session: Session) => dashboard(server, 'GET', '/api/session', { session });

describe('first-account setup', () => {
  it('creates the first account once, with the token only, and signs it in', async () => {
    expect((await dashboard(server, 'GET', '/api/session/setup')).body).toEqual({ error: 0, data: { needed: true, registration: 'closed' } });
    const token = (await readSetupToken(server.ctx.db))!;
    expect(token).toMatch(/^[\w-]{32}$/);
    const setup = (body: object) =>
      dashboard(server, 'POST', '/api/session/setup', { body: { email: 'first@example.com', password: PASSWORD, ...body } });

    expect((await setup({ token: `${token}x` })).body).toMatchObject({ error: 1, code: 'setup_token_invalid' });
    expect((await setup({ token, password: 'short' })).body).toMatchObject({ error: 1, code: 'password_short' });
    const done = await setup({ token }); // the failed try above left the token valid
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({ email: 'first@example.com', csrf: expect.any(String) });
    const session = { cookie: cookieFrom(done), csrf: done.body.data.csrf, email: 'first@example.com' };
    expect((await whoami(session)).body.data.email).toBe('first@example.com');

    expect((await setup({ token, email: 'second@example.com' })).body).toMatchObject({ error: 1, code: 'setup_done' });
    expect((await dashboard(server, 'GET', '/api/session/setup')).body.data.needed).toBe(false);
    expect(await readSetupToken(server.ctx.db)).toBeNull();
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with a cookie that scripts cannot read and other sites do not send, and answers the session', async () => {
    const user = await server.user();
    const earlier = await signIn(server, user.email, 'not yet').catch(() => null);
    expect(earlier).toBeNull(); // accounts made by the CLI have a random password until one is set
    const out = await cli(['user', 'password', '--email', user.email], `${PASSWORD}\n`);
    expect(JSON.parse(out)).toEqual({ id: user.id, email: user.email, revoked: 0 });
    const res = await dashboard(server, 'POST', '/api/session', { body: { email: user.email, password: PASSWORD } });
    expect(res.status, res.text).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^redirectory_session=[\w-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Strict$/);
    expect(res.body.data).toEqual({ email: user.email, csrf: expect.any(String), expiresAt: expect.any(String), idleExpiresAt: expect.any(String) });
    const session = { cookie: cookieFrom(res), csrf: res.body.data.csrf, email: user.email };
    expect((await whoami(session)).body).toEqual(res.body);
    const account = await dashboard(server, 'GET', '/api/account', { session });
    expect(account.body.data).toMatchObject({ id: user.id, email: user.email });
    // The session's row holds the token's hash, never the token.
    const rows = await server.ctx.db.selectFrom('sessions').select('token_hash').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(session.cookie.split('=')[1]);
  }, 30_000); // the CLI starts a process of its own

  it('answers one 401 for an unknown e-mail and a wrong password', async () => {
    const user = await server.user();
    const wrong = await dashboard(server, 'POST', '/api/session', { body: { email: user.email, password: 'not the password' } });
    const unknown = await dashboard(server, 'POST', '/api/session', { body: { email: 'nobody@example.com', password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toMatchObject({ error: 1, code: 'signin_failed' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await dashboard(server, 'GET', '/api/session')).body).toMatchObject({ error: 1, code: 'session_invalid' });
  });

  it("answers the session state with 200 signed in or not, for the dashboard's probe", async () => {
    const user = await signedInUser(server);
    const state = (session?: Session) => dashboard(server, 'GET', '/api/session/state', session ? { session } : {});
    const signedIn = await state(user);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ error: 0, data: { signedIn: true, session: (await whoami(user)).body.data } });
    expect((await state()).body).toEqual({ error: 0, data: { signedIn: false } });
    await dashboard(server, 'DELETE', '/api/session', { session: user });
    const ended = await state(user);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ error: 0, data: { signedIn: false } });
    expect((await whoami(user)).status).toBe(401); // GET /api/session keeps its 401
  });

  it('signs out this session only, and everywhere', async () => {
    const one = await signedInUser(server);
    const two = await signIn(server, one.email);
    const three = await signIn(server, one.email);
    expect((await dashboard(server, 'DELETE', '/api/session', { session: one, csrf: false })).body).toMatchObject({ code: 'csrf_invalid' });
    const out = await dashboard(server, 'DELETE', '/api/session', { session: one });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await whoami(one)).body).toMatchObject({ error: 1, code: 'session_invalid' });
    expect((await whoami(two)).status).toBe(200);

    const everywhere = await dashboard(server, 'DELETE', '/api/sessions', { session: two });
    expect(everywhere.body).toMatchObject({ error: 0, data: { revoked: 2 } });
    for (const s of [two, three]) expect((await whoami(s)).status).toBe(401);
    // An API key cannot end sessions: these calls are for the dashboard's cookie.
    expect((await server.call('DELETE', '/api/sessions', { key: one.apiKey, headers: { host: TEST_HOST } })).body).toMatchObject({
      code: 'session_invalid',
    });
  });

  it('ends a session idle for longer than SESSION_IDLE_MINUTES, and any session SESSION_MAX_DAYS after sign-in', async () => {
    const idle = await signedInUser(server);
    const old = await signIn(server, idle.email);
    const alive = await signIn(server, idle.email);
    const idleMs = server.config.SESSION_IDLE_MINUTES * 60_000;
    const set = (session: Session, values: object) => server.ctx.db.updateTable('sessions').set(values).where('csrf', '=', session.csrf).execute();
    await set(idle, { last_seen_at: iso(Date.now() - idleMs - 1000) });
    await set(old, { expires_at: iso(Date.now() - 1000) });
    await set(alive, { last_seen_at: iso(Date.now() - idleMs + 60_000) });
    expect((await whoami(idle)).body).toMatchObject({ code: 'session_invalid' });
    expect((await whoami(old)).body).toMatchObject({ code: 'session_invalid' });
    // A request renews the idle end: the next one a minute later still finds the session.
    expect((await whoami(alive)).status).toBe(200);
    const row = await server.ctx.db.selectFrom('sessions').select('last_seen_at').where('csrf', '=', alive.csrf).executeTakeFirstOrThrow();
    expect(Date.parse(row.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await server.ctx.db.selectFrom('sessions').select('csrf').where('csrf', 'in', [idle.csrf, old.csrf]).execute()).toEqual([]);
  });

  it('takes its limits from SESSION_IDLE_MINUTES and SESSION_MAX_DAYS', async () => {
    const short = await startServer({ SESSION_IDLE_MINUTES: '2', SESSION_MAX_DAYS: '0.5' });
    try {
      const user = await short.user();
      await setPassword(short.ctx, user.email, PASSWORD);
      const before = Date.now();
      const res = await dashboard(short, 'POST', '/api/session', { body: { email: user.email, password: PASSWORD } });
      expect(String(res.headers['set-cookie'])).toContain('; Max-Age=43200;');
      const { expiresAt, idleExpiresAt } = res.body.data;
      expect(Date.parse(expiresAt) - before).toBeGreaterThanOrEqual(12 * 3600_000);
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(12 * 3600_000);
      expect(Date.parse(idleExpiresAt) - before).toBeGreaterThanOrEqual(120_000);
      expect(Date.parse(idleExpiresAt) - Date.now()).toBeLessThanOrEqual(120_000);
    } finally {
      await short.close();
    }
  });
});

describe('session requests to the API', () => {
  it('need the X-CSRF-Token header to change anything; API keys do not', async () => {
    const session = await signedInUser(server);
    const add = { url: 'https://example.com/csrf' };
    expect((await dashboard(server, 'POST', '/api/url/add', { session, csrf: false, body: add })).body).toMatchObject({
      error: 1,
      code: 'csrf_invalid',
    });
    expect((await dashboard(server, 'POST', '/api/url/add', { session, body: add, headers: { 'x-csrf-token': 'guess' } })).status).toBe(403);
    const added = await dashboard(server, 'POST', '/api/url/add', { session, body: add });
    expect(added.body).toMatchObject({ error: 0, shorturl: expect.any(String) });
    expect((await server.call('POST', '/api/url/add', { key: session.apiKey, body: add })).body.error).toBe(0);
    // Another origin is refused even with the token (a page cannot learn it, but no other site's page is ever admitted).
    const foreign = await dashboard(server, 'GET', '/api/urls', { session, headers: { origin: 'https://evil.example' } });
    expect(foreign.body).toMatchObject({ code: 'csrf_invalid' });
    expect((await dashboard(server, 'GET', '/api/urls', { session, csrf: false, headers: { origin: `http://${TEST_HOST}` } })).body.data.result).toBe(
      2,
    );
    // Signing in needs no token of the live session, but the dashboard's origin (no sign-in from another site's page).
    const body = { email: session.email, password: PASSWORD };
    expect((await dashboard(server, 'POST', '/api/session', { session, csrf: false, body })).status).toBe(200);
    expect((await dashboard(server, 'POST', '/api/session', { body, headers: { origin: 'null' } })).body).toMatchObject({ code: 'csrf_invalid' });
  });
});

describe('budgets', () => {
  it("counts session requests against SESSION_RATE_LIMIT_MAX per account, apart from the key's budget", async () => {
    const small = await startServer({ RATE_LIMIT_MAX: '3', SESSION_RATE_LIMIT_MAX: '5' });
    try {
      const session = await signedInUser(small); // one unauthenticated request: the IP's budget
      const key = [];
      for (let i = 0; i < 4; i++) key.push((await small.call('GET', '/api/account', { key: session.apiKey })).status);
      expect(key).toEqual([200, 200, 200, 429]);
      const bySession = [];
      for (let i = 0; i < 6; i++) {
        const res = await dashboard(small, 'GET', '/api/account', { session });
        bySession.push(res.status);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
      }
      expect(bySession).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await small.close();
    }
  });

  it(`refuses sign-ins after ${SIGNIN_LIMITS.accountClient} failures for an account from one client, even with the right password, with Retry-After`, async () => {
    const fresh = await startServer({ RATE_LIMIT_MAX: '100000' });
    try {
      const session = await signedInUser(fresh); // a success is no failure
      const statuses = [];
      for (let i = 0; i < SIGNIN_LIMITS.accountClient; i++) {
        statuses.push((await dashboard(fresh, 'POST', '/api/session', { body: { email: session.email, password: `wrong ${i}` } })).status);
      }
      expect(statuses.every((s) => s === 401)).toBe(true);
      const right = await dashboard(fresh, 'POST', '/api/session', { body: { email: session.email, password: PASSWORD } });
      expect(right.status).toBe(429);
      expect(right.body).toMatchObject({ error: 1, code: 'signin_throttled' });
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signedInUser(fresh)).csrf).toEqual(expect.any(String)); // other accounts sign in
    } finally {
      await fresh.close();
    }
  }, 30_000);

  it(`refuses sign-ins from a client after ${SIGNIN_LIMITS.client} failures, whatever the account`, async () => {
    const fresh = await startServer({ RATE_LIMIT_MAX: '100000' });
    try {
      const statuses = [];
      for (let i = 0; i <= SIGNIN_LIMITS.client; i++) {
        statuses.push((await dashboard(fresh, 'POST', '/api/session', { body: { email: `guess${i}@example.com`, password: 'password1' } })).status);
      }
      expect(statuses.slice(0, SIGNIN_LIMITS.client).every((s) => s === 401)).toBe(true);
      expect(statuses[SIGNIN_LIMITS.client]).toBe(429);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

describe('registration', () => {
  it('is closed unless REGISTRATION=open', async () => {
    const body = { email: 'new@example.com', password: PASSWORD };
    expect((await dashboard(server, 'POST', '/api/session/register', { body })).body).toMatchObject({ error: 1, code: 'registration_closed' });
    const open = await startServer({ REGISTRATION: 'open' });
    try {
      expect((await dashboard(open, 'GET', '/api/session/setup')).body.data.registration).toBe('open');
      const res = await dashboard(open, 'POST', '/api/session/register', { body });
      expect(res.body).toMatchObject({ error: 0, data: { email: 'new@example.com' } });
      const session = { cookie: cookieFrom(res), csrf: res.body.data.csrf, email: body.email };
      expect((await dashboard(open, 'GET', '/api/account', { session })).body.data.email).toBe('new@example.com');
      expect((await dashboard(open, 'POST', '/api/session/register', { body })).body).toMatchObject({ code: 'email_taken' });
    } finally {
      await open.close();
    }
  });
});

describe('DASHBOARD_URL', () => {
  it("answers sessions on the dashboard's host only, with a Secure cookie when it is https", async () => {
    const split = await startServer({ DASHBOARD_URL: 'https://dash.test', RATE_LIMIT_MAX: '100000' });
    try {
      const session = await signedInUser(split, 'dash.test');
      const signin = await dashboard(split, 'POST', '/api/session', { host: 'dash.test', body: { email: session.email, password: PASSWORD } });
      expect(String(signin.headers['set-cookie'])).toMatch(/; Secure$/);
      expect((await dashboard(split, 'GET', '/api/session', { session, host: 'dash.test' })).status).toBe(200);
      // On the short-link host the cookie counts for nothing and the session endpoints do not exist.
      expect((await dashboard(split, 'GET', '/api/account', { session })).body).toMatchObject({ code: 'key_required' });
      expect((await dashboard(split, 'GET', '/api/session', { session })).body).toMatchObject({ code: 'endpoint_not_found' });
      expect((await dashboard(split, 'POST', '/api/session', { body: { email: session.email, password: PASSWORD } })).status).toBe(404);
      // Nor can an account claim the dashboard's host as a branded domain.
      const domain = await split.call('POST', '/api/domain/add', { key: session.apiKey, body: { domain: 'https://dash.test' } });
      expect(domain.body).toMatchObject({ code: 'domain_own_host' });
    } finally {
      await split.close();
    }
  });
});

describe('pixel pages', () => {
  it("are sandboxed on the dashboard's host and nowhere else", async () => {
    const split = await startServer({ DASHBOARD_URL: 'http://dash.test' });
    try {
      for (const [target, sandboxHost, plainHost] of [
        [server, TEST_HOST, null],
        [split, 'dash.test', TEST_HOST],
      ] as const) {
        const { apiKey } = await target.user();
        const pixel = (await target.call('POST', '/api/pixel/add', { key: apiKey, body: { type: 'analyticspixel', name: 'GA', tag: 'G-1' } })).body
          .id;
        const plain = (await target.call('POST', '/api/url/add', { key: apiKey, body: { url: 'https://example.com/plain' } })).body;
        const tracked = (await target.call('POST', '/api/url/add', { key: apiKey, body: { url: 'https://example.com/px', pixels: [pixel] } })).body;
        const alias = (shorturl: string) => new URL(shorturl).pathname;
        const page = await target.visit(alias(tracked.shorturl), { headers: { host: sandboxHost } });
        expect(page.status).toBe(200);
        expect(String(page.headers['content-security-policy'])).toMatch(/; sandbox allow-scripts [^;]*$/);
        expect(String(page.headers['content-security-policy'])).not.toContain('allow-same-origin');
        expect((await target.visit(alias(plain.shorturl), { headers: { host: sandboxHost } })).status).toBe(302);
        if (plainHost) {
          const elsewhere = await target.visit(alias(tracked.shorturl), { headers: { host: plainHost } });
          expect(String(elsewhere.headers['content-security-policy'])).not.toContain('sandbox');
        }
      }
    } finally {
      await split.close();
    }
  });
});
