import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountState, seedAccount, withoutCounts, type Seeded } from './helpers/account-state.js';
import { encode, fuzzParams, fuzzRuns, fuzzTimeout, LEAK, nastyQuery, nastySegment, nastyString } from './helpers/fuzz.js';
import { rawRequest, type RawReply, type RawRequest } from './helpers/raw-http.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

/**
 * Property-based fuzzing of the public side (short links, password form, rotator, campaign lists, QR
 * images and scans, health): odd Host headers, overlong paths, malformed Accept-Language, User-Agent,
 * cookies and form bodies, sent byte for byte. Every answer is below 500 with no stack trace, every HTML
 * page carries its security headers, visits are still counted, and the account's data is unchanged.
 */
const RUNS = fuzzRuns(1000);
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

let server: TestServer;
let key: string;
let userId: number;
let username: string;
let seeded: Seeded;
let brandHost: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  const user = await server.user();
  [key, userId, username] = [user.apiKey, user.id, user.username];
  seeded = await seedAccount(server, key);
  const domains = await server.call('GET', '/api/domains', { key });
  brandHost = new URL(domains.body.data.domains[0].domain).host;
  // A link on the branded domain too, so hostile requests reach its lookup and its 404 redirect.
  await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/brand', custom: 'on-brand', domain: brandHost } });
}, 60_000);
afterAll(() => server?.close());

const noLineBreaks = (value: string) => value.replace(/[\r\n]/g, ' ');

const host = fc.oneof(
  { weight: 4, arbitrary: fc.constant(TEST_HOST) },
  { weight: 2, arbitrary: fc.constant('brand') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'REDIRECTORY.TEST',
      `${TEST_HOST}.`,
      `${TEST_HOST}:99999`,
      `${TEST_HOST}:0`,
      '[::1]',
      '[::1',
      'a'.repeat(300),
      'xn--',
      'xn--zz',
      'exa mple.com',
      `${TEST_HOST}@evil.example`,
      `evil.example/${TEST_HOST}`,
      '127.0.0.1',
      '0',
      'évil.example',
      'unknown.example',
      '%00',
      '..',
      'localhost:3000',
      `${TEST_HOST}, evil.example`,
      '\u0000',
    ),
  },
  { weight: 1, arbitrary: nastyString.map(noLineBreaks) },
);

const aliasPath = fc.oneof(
  fc.constantFrom('linkAlias', 'bioAlias').map((k) => `/${seeded[k as 'linkAlias']}`),
  fc.constantFrom(
    '/on-brand',
    '/',
    '/health',
    '/ready',
    '/docs',
    '/docs/',
    '/api/openapi.json',
    '//',
    '/./',
    '/%2e%2e/',
    '/a/b/../..',
    '/\u00e9t\u00e9',
    '/%C0%AF',
    '/%ZZ',
    '/%',
    '/?',
    '/#frag',
    '/*',
    `/${'a'.repeat(1001)}`,
    `/${'a'.repeat(9000)}`,
    `/${'a'.repeat(20_000)}`,
  ),
  fc.constant(null).map(() => `/${seeded.linkAlias.replace('link', 'open')}`),
  nastySegment.map((s) => `/${s}`),
  fc
    .tuple(fc.constantFrom('/r/', '/qr/', '/u/'), fc.oneof(fc.constant('seed'), nastySegment), fc.oneof(fc.constant(''), nastySegment))
    .map(([prefix, a, b]) => {
      if (prefix === '/r/') return `/r/${a === 'seed' ? seeded.campaignSlug : a}`;
      if (prefix === '/qr/') return `/qr/${a === 'seed' ? seeded.qrSlug : a}${b ? (b.length % 2 ? '/scan' : `/${b}`) : ''}`;
      return `/u/${a === 'seed' ? username : a}/${b || `${seeded.campaignSlug}-${seeded.campaign}`}`;
    }),
);

const query = fc.oneof(
  fc.constant(''),
  nastyQuery,
  fc.constantFrom('?size=-1', '?size=1e9', '?size=2048&format=svg', '?format=gif', '?format=svg&format=png', '?size=64.5', '?a=%ZZ'),
);

const headerValue = fc.oneof(
  { weight: 3, arbitrary: nastyString.map(noLineBreaks) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'x'.repeat(8000),
      '*;q=abc',
      'en;q=1e999',
      ',,,',
      'de-DE;q=0.5,'.repeat(500),
      'q=0.5',
      'zh-Hant-TW;q=0.9',
      'rdpw1=999999999999999999.abc',
      `rdpw${'9'.repeat(30)}=1.1`,
      '=;=;',
      'rdpw1=%ZZ',
      'a=b; '.repeat(1000),
      'facebookexternalhit/1.1',
      'Googlebot/2.1',
      BROWSER,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)',
      '(((((((((((((((((((((((((((((((a',
      '\t',
      'ÿþ',
    ),
  },
);

const OPTIONAL_HEADERS = ['user-agent', 'accept-language', 'cookie', 'referer', 'x-forwarded-for', 'accept', 'if-none-match', 'range'];

const formBody = fc.oneof(
  fc.string({ maxLength: 50 }).map((p) => ({ type: 'application/x-www-form-urlencoded', text: `password=${encode(p)}` })),
  fc
    .constantFrom(
      'password=a&password=b',
      'password=%ZZ',
      'password=%',
      'password',
      '=',
      '&&&',
      `password=${'x'.repeat(20_000)}`,
      'password=seeded+password',
    )
    .map((text) => ({ type: 'application/x-www-form-urlencoded', text })),
  fc
    .constantFrom('{"password":5}', '{"password":{"a":1}}', '{"password":"seeded password"}', '{"password":', '[]', 'null')
    .map((text) => ({ type: 'application/json', text })),
  fc
    .tuple(
      fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/x-www-form-urlencoded; charset=utf-16'),
      fc.string({ maxLength: 30 }),
    )
    .map(([type, text]) => ({ type, text })),
);

const publicRequest: fc.Arbitrary<RawRequest> = fc
  .record({
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constant('GET') },
      { weight: 1, arbitrary: fc.constant('HEAD') },
      { weight: 3, arbitrary: fc.constant('POST') },
      { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'FOO') },
    ),
    path: aliasPath,
    query,
    host: fc.option(host, { nil: undefined, freq: 12 }),
    extra: fc.dictionary(fc.constantFrom(...OPTIONAL_HEADERS), headerValue, { maxKeys: 4 }),
    form: formBody,
  })
  .map(({ method, path, query: q, host: h, extra, form }) => {
    const headers: Array<[string, string]> = [];
    if (h !== undefined) headers.push(['Host', h === 'brand' ? brandHost : h]);
    headers.push(...Object.entries(extra));
    if (!('user-agent' in extra)) headers.push(['User-Agent', BROWSER]);
    const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    if (withBody) headers.push(['Content-Type', form.type]);
    return { method, target: path + q, headers, body: withBody ? form.text : undefined };
  });

function expectSafe(res: RawReply, what: string): void {
  expect(res.status, `${what} → ${res.status} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.body, what).not.toMatch(LEAK);
  if ((res.headers['content-type'] ?? '').startsWith('text/html')) {
    expect(res.headers['content-security-policy'], what).toMatch(/default-src '(none|self)'.*frame-ancestors 'none'/);
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  }
}

it(
  'answers hostile public requests below 500, without stack traces, and changes nothing but visit counts',
  async () => {
    const before = withoutCounts(await accountState(server, key, userId));
    await fc.assert(
      fc.asyncProperty(publicRequest, async (request) => {
        const what = JSON.stringify({ ...request, body: request.body?.slice(0, 200) }).slice(0, 600);
        // Node closes CONNECT requests (a proxy tunnel) without an answer: nothing reaches the app.
        if (request.method === 'CONNECT') return void (await rawRequest(server.url, request).catch(() => null));
        expectSafe(await rawRequest(server.url, request), what);
      }),
      fuzzParams(RUNS),
    );

    // Visits with hostile headers are parsed when the recorder writes them: the batch still goes through,
    // and the next visit is counted.
    await server.ctx.clicks.flush();
    expect(server.ctx.clicks.pending).toBe(0);
    const openAlias = seeded.linkAlias.replace('link', 'open');
    const clicksOf = async () => {
      const list = await server.call('GET', `/api/urls?limit=1000&q=${openAlias}`, { key });
      return list.body.data.urls.find((u: { alias: string }) => u.alias === openAlias).clicks as number;
    };
    const counted = await clicksOf();
    expect((await server.visit(`/${openAlias}`, { headers: { 'user-agent': BROWSER } })).status).toBe(302);
    await server.ctx.clicks.flush();
    expect(await clicksOf()).toBe(counted + 1);
    expect(withoutCounts(await accountState(server, key, userId))).toEqual(before);
    expect((await server.visit('/health')).status).toBe(200);
  },
  fuzzTimeout(45_000),
);
