import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';
import { cookieFrom, dashboard, PASSWORD, signedInUser, type Session } from './helpers/session.js';

/**
 * Issue 23 §2: a tag script on a pixel page of a parent or sibling host (the short domain `sho.rt` beside the
 * dashboard on `app.sho.rt`) can set `redirectory_session=…; domain=sho.rt`, a cookie the dashboard's host is sent too.
 * The browser-level scenario is tests/browser/session-cookies.test.ts; these are the server's answers.
 */
const setCookies = (headers: Record<string, unknown>) => [headers['set-cookie'] ?? []].flat() as string[];
const token = (session: Session) => session.cookie.split('=')[1]!;

describe('on http: a request with more than one session cookie', () => {
  let server: TestServer;
  let victim: Session & { apiKey: string };
  let attacker: Session;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_MAX: '100000' });
    [victim, attacker] = [await signedInUser(server), await signedInUser(server)];
  });
  afterAll(() => server.close());

  // As a browser sends them: the planted Domain cookie, older, before the victim's own (same path).
  const both = () => ({ ...victim, cookie: `redirectory_session=${token(attacker)}; redirectory_session=${token(victim)}` });

  it('is refused with 401 session_ambiguous, which expires them on the host and on each parent domain, at each path', async () => {
    for (const [method, path] of [
      ['GET', '/api/session'],
      ['GET', '/api/account'],
      ['GET', '/api/urls'],
      ['POST', '/api/url/add'],
    ] as const) {
      const res = await dashboard(server, method, path, { session: both(), body: method === 'POST' ? { url: 'https://example.com/x' } : undefined });
      expect(res.status, path).toBe(401);
      expect(res.body, path).toEqual({ error: 1, message: expect.stringContaining('more than one session cookie'), code: 'session_ambiguous' });
      const expired = setCookies(res.headers);
      for (const scope of ['', `; Domain=${TEST_HOST}`]) {
        for (const at of ['/', '/api', '/api/', path])
          expect(expired, `${path} ${at}${scope}`).toContain(`redirectory_session=; Max-Age=0; HttpOnly; SameSite=Strict; Path=${at}${scope}`);
      }
    }
    const links = await server.call('GET', '/api/urls', { key: victim.apiKey });
    expect(links.body.data.urls).toEqual([]); // the POST created nothing, for either account
  });

  it('still lets an API key through, and a sign-in sets the new cookie after expiring the old ones', async () => {
    const keyed = await dashboard(server, 'GET', '/api/account', { session: both(), headers: { authorization: `Bearer ${victim.apiKey}` } });
    expect(keyed.status, keyed.text).toBe(200);
    const signin = await dashboard(server, 'POST', '/api/session', {
      session: both(),
      csrf: false,
      body: { email: victim.email, password: PASSWORD },
    });
    expect(signin.status, signin.text).toBe(200);
    const cookies = setCookies(signin.headers);
    expect(cookies[0]).toBe('redirectory_session=; Max-Age=0; HttpOnly; SameSite=Strict; Path=/');
    expect(cookies.at(-1)).toMatch(/^redirectory_session=[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const fresh = { cookie: cookies.at(-1)!.split(';')[0]!, csrf: signin.body.data.csrf, email: victim.email };
    expect((await dashboard(server, 'GET', '/api/session', { session: fresh })).body.data.email).toBe(victim.email);
  });

  it('one session cookie is taken as before', async () => {
    expect((await dashboard(server, 'GET', '/api/session', { session: victim })).body.data.email).toBe(victim.email);
    const openapi = (await server.call('GET', '/api/openapi.json')).body;
    expect(openapi.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: 'redirectory_session' });
  });
});

describe('on https: the __Host- cookie', () => {
  let server: TestServer;
  const host = 'app.sho.rt';
  beforeAll(async () => {
    server = await startServer({ BASE_URL: 'https://sho.rt', DASHBOARD_URL: `https://${host}`, RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  it('is the only session cookie read: one of the plain name, as a parent domain can plant, is ignored', async () => {
    const [victim, attacker] = [await signedInUser(server, host), await signedInUser(server, host)];
    expect(victim.cookie).toMatch(/^__Host-redirectory_session=[\w-]{43}$/);
    const signin = await dashboard(server, 'POST', '/api/session', { host, body: { email: victim.email, password: PASSWORD } });
    expect(setCookies(signin.headers)).toEqual([
      expect.stringMatching(/^__Host-redirectory_session=[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/),
    ]);
    expect(cookieFrom(signin)).toMatch(/^__Host-/);

    const planted = `redirectory_session=${token(attacker)}`;
    const mixed = { ...victim, cookie: `${planted}; ${victim.cookie}` };
    expect((await dashboard(server, 'GET', '/api/session', { host, session: mixed })).body.data.email).toBe(victim.email);
    const alone = await dashboard(server, 'GET', '/api/session', { host, session: { ...victim, cookie: planted } });
    expect(alone.body).toMatchObject({ error: 1, code: 'session_invalid' });
    const twice = await dashboard(server, 'GET', '/api/session', { host, session: { ...victim, cookie: `${attacker.cookie}; ${victim.cookie}` } });
    expect(twice.body).toMatchObject({ error: 1, code: 'session_ambiguous' });
    expect(setCookies(twice.headers)).toEqual(['__Host-redirectory_session=; Max-Age=0; HttpOnly; SameSite=Strict; Secure; Path=/']);

    const openapi = (await server.call('GET', '/api/openapi.json')).body;
    expect(openapi.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: '__Host-redirectory_session' });
  });

  it("no branded domain shares cookies with the dashboard's host or BASE_URL's host", async () => {
    const { apiKey } = await server.user();
    const add = (domain: string) => server.call('POST', '/api/domain/add', { key: apiKey, body: { domain } });
    for (const domain of ['https://app.sho.rt', 'https://sho.rt'])
      expect((await add(domain)).body, domain).toMatchObject({ code: 'domain_own_host' });
    for (const [domain, own] of [
      ['https://x.app.sho.rt', host],
      ['https://go.sho.rt', 'sho.rt'],
      ['http://sho.rt:8080', host],
      ['https://rt', 'app.sho.rt'],
      ['https://a.b.sho.rt', 'sho.rt'],
      ['https://app.sho.rt:8443', host],
    ]) {
      const res = await add(domain);
      expect(res.status, domain).toBe(400);
      expect(res.body, domain).toEqual({ error: 1, message: expect.stringContaining(`this service's own host ${own}`), code: 'domain_reserved' });
    }
    for (const domain of ['https://notsho.rt', 'https://sho.rt.example', 'https://app.sho.rt.example'])
      expect((await add(domain)).status, domain).toBe(200);
  });
});
