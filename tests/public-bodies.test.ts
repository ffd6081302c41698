import { connect } from 'node:net';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
  key = (await server.user()).apiKey;
  for (const [custom, extra] of [
    ['open-body', {}],
    ['locked-body', { password: 'correct horse' }],
  ] as const) {
    const res = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/', custom, ...extra } });
    expect(res.status, res.text).toBe(200);
  }
});
afterAll(() => server.close());

const MB = 1024 * 1024;
/** The body: a 1 MB nested array, the most expensive JSON to parse and walk per byte. */
const NESTED = '['.repeat(MB / 2) + ']'.repeat(MB / 2);
let clientCounter = 0;
/** Each test posts from its own client address, so the POST budget of one never spills into another. */
const nextClient = () => `198.51.100.${++clientCounter}`;

/**
 * Sends the head of a request and only the first `sent` bytes of its declared body, then waits for the
 * status line: an answer can only come from a server that decided without reading the body.
 */
function statusBeforeBody(path: string, headers: Record<string, string>, sent: string): Promise<number> {
  const url = new URL(server.url);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${TEST_HOST}`,
    `X-Forwarded-For: ${nextClient()}`,
    ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer while the body was still arriving')));
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.write(head + sent);
  });
}

const post = (path: string, type: string, body: string | Readable, client = nextClient()) =>
  request(`${server.url}${path}`, { method: 'POST', headers: { host: TEST_HOST, 'content-type': type, 'x-forwarded-for': client }, body }).then(
    async (res) => ({ status: res.statusCode, headers: res.headers, text: await res.body.text() }),
  );

describe('public routes take only the password form, up to 16 KB', () => {
  it('answers JSON and other types with an HTML 415 on unknown and known aliases and other public paths', async () => {
    for (const path of ['/no-such-alias', '/open-body', '/locked-body', '/', '/qr/abc', '/r/abc', '/a/b/c']) {
      for (const [type, body] of [
        ['application/json', NESTED],
        ['application/json', '{"password":"correct horse"}'],
        ['text/plain', 'password=x'],
      ]) {
        const res = await post(path, type, body);
        expect(res.status, `${type} ${path}`).toBe(415);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.text).toContain('application/x-www-form-urlencoded');
      }
    }
  });

  it('answers a form over 16 KB with 413, whether it declares its length or is chunked', async () => {
    const big = `password=${'x'.repeat(16 * 1024)}`;
    for (const path of ['/no-such-alias', '/locked-body']) {
      const declared = await post(path, 'application/x-www-form-urlencoded', big);
      expect(declared.status, path).toBe(413);
      expect(declared.text).toContain('16 KB');
      const chunked = await post(path, 'application/x-www-form-urlencoded', Readable.from([big.slice(0, 9000), big.slice(9000)]));
      expect(chunked.status, `${path} chunked`).toBe(413);
    }
    // Just under the limit is a password like any other (wrong here).
    expect((await post('/locked-body', 'application/x-www-form-urlencoded', `password=${'x'.repeat(16_000)}`)).status).toBe(401);
  });

  it('decides before the body arrives: the answer comes while most of it is still unsent', async () => {
    const json = { 'Content-Type': 'application/json', 'Content-Length': String(MB) };
    expect(await statusBeforeBody('/no-such-alias', json, NESTED.slice(0, 1000))).toBe(415);
    expect(await statusBeforeBody('/locked-body', json, NESTED.slice(0, 1000))).toBe(415);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expect(await statusBeforeBody('/locked-body', { ...form, 'Content-Length': String(MB) }, 'password=')).toBe(413);
    expect(await statusBeforeBody('/locked-body', { ...form, 'Transfer-Encoding': 'chunked' }, `5000\r\n${'x'.repeat(0x5000)}\r\n`)).toBe(413);
  });

  it('keeps /health answering while six clients send 1 MB bodies', async () => {
    const senders = Array.from({ length: 6 }, (_, i) => post(i % 2 ? '/no-such-alias' : '/locked-body', 'application/json', NESTED));
    const health = await request(`${server.url}/health`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toEqual({ status: 'ok' });
    expect((await Promise.all(senders)).map((r) => r.status)).toEqual(Array(6).fill(415));
  });

  it('still unlocks with the form and still reads JSON on the API', async () => {
    const res = await post('/locked-body', 'application/x-www-form-urlencoded', 'password=correct+horse');
    expect(res.status).toBe(200); // the continue page (the browser fix replaced the 303)
    const api = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/api-body' } });
    expect(api.status).toBe(200);
  });
});

describe('public POSTs per client', () => {
  const BUDGET = 60;

  it(`answers the POST after ${BUDGET} in a minute with a 429 page and Retry-After; other clients are not affected`, async () => {
    const client = nextClient();
    const window = () => Math.floor(Date.now() / 60_000);
    const started = window();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 2 * BUDGET + 1 && !statuses.includes(429); i++) {
      last = await post(i % 3 ? '/no-such-alias' : '/open-body', 'application/x-www-form-urlencoded', 'password=x', client);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, BUDGET)).not.toContain(429);
    // A fixed window may turn over during the loop; then the 429 comes later, but it comes.
    expect(statuses.indexOf(429)).toBe(window() === started ? BUDGET : statuses.length - 1);
    expect(last!.headers['content-type']).toContain('text/html');
    expect(last!.headers['content-security-policy']).toContain("default-src 'none'");
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.text).toContain('Too many requests');
    expect((await post('/locked-body', 'application/x-www-form-urlencoded', 'password=correct+horse', client)).status).toBe(429);
    expect((await post('/locked-body', 'application/x-www-form-urlencoded', 'password=correct+horse')).status).toBe(200);
    expect((await server.visit('/open-body', { headers: { 'x-forwarded-for': client } })).status).toBe(302);
  });

  it('counts an IPv6 client by its /64', async () => {
    const net = `2001:db8:${(++clientCounter).toString(16)}:1`;
    const statuses: number[] = [];
    for (let i = 0; i < 2 * BUDGET + 1 && !statuses.includes(429); i++) {
      statuses.push((await post('/no-such-alias', 'application/x-www-form-urlencoded', 'password=x', `${net}::${(i + 1).toString(16)}`)).status);
    }
    expect(statuses).toContain(429);
    expect((await post('/no-such-alias', 'application/x-www-form-urlencoded', 'password=x', `${net.slice(0, -1)}2::1`)).status).toBe(404);
  });
});

describe('the API keeps refusing NUL characters in large bodies', () => {
  const filler = 'y'.repeat(900_000);

  it('answers 400 naming the field when a NUL sits at the end of a large body', async () => {
    const body = { url: 'https://example.com/', padding: filler, metatitle: 'x'.repeat(10) + '\u0000' };
    const res = await server.call('POST', '/api/url/add', { key, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The field "metatitle" must not contain NUL characters.');
    const nested = await server.call('POST', '/api/qr/add', {
      key,
      rawBody: `{"type":"text","data":{"text":"${filler}\\u0000"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.body.message).toBe('The field "data.text" must not contain NUL characters.');
    const inKey = await server.call('POST', '/api/qr/add', {
      key,
      rawBody: `{"type":"text","data":{"a\\u0000":"${filler}"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(inKey.body.message).toBe('The field "data" must not contain NUL characters.');
  });

  it('finds a NUL exactly where JSON spells one, however backslashes and escapes mix', async () => {
    const piece = fc.constantFrom('\\', 'u0000', '\u0000', '\\u0000', 'a', '"', '\n', 'é');
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
        async (text) => {
          const res = await server.call('POST', '/api/url/add', { key, body: { padding: text } });
          expect(res.body.message).toBe(
            text.includes('\u0000') ? 'The field "padding" must not contain NUL characters.' : 'The body field "url" is required.',
          );
        },
      ),
      { seed: 12, numRuns: 150 },
    );
  });

  it('takes a backslash followed by u0000 as the text it is', async () => {
    const res = await server.call('POST', '/api/url/add', {
      key,
      body: { url: 'https://example.com/', padding: `${filler}\\u0000`, metatitle: '\\\\u0000' },
    });
    expect(res.status, res.text).toBe(200);
  });
});
