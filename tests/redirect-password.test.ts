import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function protectedLink(custom: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await server.call('POST', '/api/url/add', {
    key,
    body: { url: 'https://example.com/secret?a=1', custom, password: 'correct horse', ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

const post = (alias: string, password: string, ip = '203.0.113.5', headers: Record<string, string> = {}) =>
  server.visit(`/${alias}`, {
    method: 'POST',
    headers: { ...FORM, 'x-forwarded-for': ip, ...headers },
    body: new URLSearchParams({ password }).toString(),
  });

/** A right password (or a post to an open link) answers a page that continues to the link, never a redirect. */
function expectContinue(res: { status: number; headers: Record<string, unknown>; text: string }, alias: string): void {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.location).toBeUndefined();
  expect(res.text).toContain(`<meta http-equiv="refresh" content="0;url=/${alias}">`);
  expect(res.text).toContain(`<a id="go" href="/${alias}">`);
}

function cookieOf(res: { headers: Record<string, unknown> }): string {
  const header = res.headers['set-cookie'];
  return String(Array.isArray(header) ? header[0] : header);
}

describe('password-protected links', () => {
  it('shows a form, refuses a wrong password with 401, and unlocks with a scoped signed cookie', async () => {
    const id = await protectedLink('locked-one');
    const form = await server.visit('/locked-one');
    expect(form.status).toBe(200);
    expect(form.headers.location).toBeUndefined();
    expect(form.text).toContain('<form method="post" action="/locked-one"');
    expect(form.text).toContain('name="password"');
    expect(form.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const wrong = await post('locked-one', 'nope nope');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('not right');
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const right = await post('locked-one', 'correct horse');
    expectContinue(right, 'locked-one');
    const cookie = cookieOf(right);
    expect(cookie).toMatch(new RegExp(`^rdpw${id}=\\d+\\.[\\w-]+; Max-Age=86400; Path=/locked-one; HttpOnly; SameSite=Lax$`));

    const pair = cookie.split(';')[0]!;
    const through = await server.visit('/locked-one', { headers: { cookie: `other=1; ${pair}` } });
    expect(through.status).toBe(302);
    expect(through.headers.location).toBe('https://example.com/secret?a=1');
  });

  it('refuses tampered, foreign and expired cookies', async () => {
    const id = await protectedLink('locked-two');
    const otherId = await protectedLink('locked-three');
    const pair = cookieOf(await post('locked-two', 'correct horse')).split(';')[0]!;
    const [name, value] = pair.split('=') as [string, string];
    const [expires, sig] = value.split('.') as [string, string];
    const tampered = [
      `${name}=${expires}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`,
      `${name}=${Number(expires) + 1000}.${sig}`,
      `${name}=${Math.floor(Date.now() / 1000) - 10}.${sig}`,
      `rdpw${otherId}=${value}`,
      `${name}=garbage`,
    ];
    expect(name).toBe(`rdpw${id}`);
    for (const cookie of tampered) {
      const res = await server.visit(cookie.startsWith(`rdpw${otherId}`) ? '/locked-three' : '/locked-two', { headers: { cookie } });
      expect(res.status, cookie).toBe(200);
      expect(res.text).toContain('Password required');
    }
  });

  it('stops accepting the cookie once the password changes', async () => {
    const id = await protectedLink('locked-four');
    const pair = cookieOf(await post('locked-four', 'correct horse')).split(';')[0]!;
    expect((await server.visit('/locked-four', { headers: { cookie: pair } })).status).toBe(302);
    await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/secret?a=1', password: 'battery staple' } });
    expect((await server.visit('/locked-four', { headers: { cookie: pair } })).status).toBe(200);
  });

  it('throttles repeated failures per link and client IP with 429', async () => {
    await protectedLink('locked-five');
    for (let i = 0; i < 5; i++) expect((await post('locked-five', `wrong-${i}`, '198.51.100.7')).status).toBe(401);
    const blocked = await post('locked-five', 'correct horse', '198.51.100.7');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.text).toContain('Too many attempts');
    // Another client, or the same client on another link, is not affected.
    expect((await post('locked-five', 'correct horse', '198.51.100.8')).status).toBe(200);
    await protectedLink('locked-six');
    expect((await post('locked-six', 'correct horse', '198.51.100.7')).status).toBe(200);
  });

  it('answers an empty password with 400, and other bodies (JSON too: issue 12) with an HTML 415', async () => {
    await protectedLink('locked-seven');
    const empty = await post('locked-seven', '');
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Enter the password');
    const json = await server.visit('/locked-seven', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"password":"correct horse"}',
    });
    expect(json.status).toBe(415);
    expect(json.text).toContain('x-www-form-urlencoded');
    const text = await server.visit('/locked-seven', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'password=correct horse' });
    expect(text.status).toBe(415);
    expect(text.headers['content-type']).toContain('text/html');
    expect(text.text).toContain('x-www-form-urlencoded');
  });

  it('checks expiry before the password, and posting to an open link just goes back to it', async () => {
    await protectedLink('locked-old', { expiry: '2020-01-01 00:00:00' });
    expect((await server.visit('/locked-old')).status).toBe(410);
    expect((await post('locked-old', 'correct horse')).status).toBe(410);
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/open', custom: 'open-one' } });
    expectContinue(await post('open-one', 'anything'), 'open-one');
    expect((await post('missing-one', 'x')).status).toBe(404);
  });

  it('marks the cookie Secure on https short links', async () => {
    const secure = await startServer({ BASE_URL: 'https://redirectory.test', RATE_LIMIT_MAX: '100000' });
    try {
      const user = await secure.user();
      await secure.call('POST', '/api/url/add', {
        key: user.apiKey,
        body: { url: 'https://example.com/x', custom: 'sec-one', password: 'correct horse' },
      });
      const res = await secure.visit('/sec-one', { method: 'POST', headers: FORM, body: 'password=correct+horse' });
      expect(res.status).toBe(200);
      expect(cookieOf(res)).toContain('; Secure');
    } finally {
      await secure.close();
    }
  });
});

describe('link password brute force', () => {
  const guess = (on: TestServer, alias: string, password: string, ip: string) =>
    on.visit(`/${alias}`, { method: 'POST', headers: { ...FORM, 'x-forwarded-for': ip }, body: new URLSearchParams({ password }).toString() });

  it('checks at most 5 guesses per link and client (an IPv6 /64), even when they arrive all at once', async () => {
    const proxied = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
    try {
      const owner = (await proxied.user()).apiKey;
      await proxied.call('POST', '/api/url/add', {
        key: owner,
        body: { url: 'https://example.com/vault', custom: 'vault', password: 'correct horse' },
      });
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
