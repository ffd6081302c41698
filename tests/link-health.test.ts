import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthChecker } from '../src/features/health/checker.js';
import { OutboundClient } from '../src/infra/outbound/client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { UA } from './helpers/user-agents.js';

/**
 * Link health (extension): the checker against local servers (loopback allowed by OUTBOUND_ALLOW_LOOPBACK for
 * tests; private and metadata addresses stay refused), details.health, ?health=, POST check, healthcheck,
 * fallbackurl on the redirect, and the lease that keeps two checkers off one link.
 */
interface Seen {
  method: string;
  path: string;
  agent: string;
}

let origin: string;
let destinations: Server;
const seen: Seen[] = [];
/** What /flaky answers now. */
let flaky = 200;

const ROUTES: Record<string, (method: string) => { status: number; location?: string } | null> = {
  '/ok': () => ({ status: 200 }),
  '/moved': () => ({ status: 301, location: '/ok' }),
  '/missing': () => ({ status: 404 }),
  '/fail': () => ({ status: 500 }),
  '/slow': () => null,
  '/loop-a': () => ({ status: 302, location: '/loop-b' }),
  '/loop-b': () => ({ status: 302, location: '/loop-a' }),
  '/metadata': () => ({ status: 302, location: 'http://169.254.169.254/latest/meta-data/' }),
  '/private': () => ({ status: 307, location: 'http://10.0.0.1/admin' }),
  '/nohead': (method) => ({ status: method === 'HEAD' ? 405 : 200 }),
  '/flaky': () => ({ status: flaky }),
};

function startDestinations(): Promise<void> {
  destinations = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push({ method: req.method ?? '', path: req.url ?? '', agent: String(req.headers['user-agent']) });
    const answer = (ROUTES[path] ?? (() => ({ status: 200 })))(req.method ?? 'GET');
    if (!answer) return; // never answers: the checker's timeout ends it
    res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end('body');
  });
  return new Promise((resolve) =>
    destinations.listen(0, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${(destinations.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

let server: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  await startDestinations();
  server = await startServer({ RATE_LIMIT_MAX: '100000', OUTBOUND_ALLOW_LOOPBACK: 'true', OUTBOUND_TIMEOUT_MS: '2000', HEALTH_INTERVAL_S: '0' }); // the 2 s timeout: only /slow waits it out, and a busy machine answers within it
  [key, otherKey] = [(await server.user()).apiKey, (await server.user()).apiKey];
});
afterAll(async () => {
  await server?.close();
  destinations?.closeAllConnections();
  await new Promise((resolve) => destinations?.close(resolve));
});

const call = async (method: string, path: string, body?: unknown, k = key) => {
  const res = await server.call(method, path, { key: k, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const add = async (url: string, extra: Record<string, unknown> = {}) => (await call('POST', '/api/url/add', { url, ...extra })).id as number;
const check = async (id: number) => (await call('POST', `/api/url/${id}/check`)).health;
const detail = async (id: number) => (await call('GET', `/api/url/${id}`)).details;

describe('the checker', () => {
  it('finds 2xx and followed redirects ok, 4xx and 5xx broken, silence unreachable, with an honest User-Agent', async () => {
    const expected: Array<[string, string, number | null]> = [
      ['/ok', 'ok', 200],
      ['/moved', 'ok', 200],
      ['/missing', 'broken', 404],
      ['/fail', 'broken', 500],
      ['/slow', 'unreachable', null],
      ['/loop-a', 'broken', null],
    ];
    for (const [path, status, code] of expected) {
      const id = await add(`${origin}${path}`);
      expect(await check(id), path).toMatchObject({ status, code });
    }
    const agents = new Set(seen.map((s) => s.agent));
    expect([...agents]).toEqual([expect.stringMatching(/^Redirectory-LinkCheck\/\d+\.\d+\.\d+ \(\+http:\/\/redirectory\.test\)$/)]);
  });

  it('never follows a redirect to a metadata or private address, even with loopback allowed', async () => {
    for (const path of ['/metadata', '/private']) {
      const id = await add(`${origin}${path}`);
      expect(await check(id), path).toMatchObject({ status: 'unreachable', code: null });
    }
  });

  it('asks again with GET when HEAD is refused', async () => {
    const before = seen.length;
    const id = await add(`${origin}/nohead`);
    expect(await check(id)).toMatchObject({ status: 'ok', code: 200 });
    expect(seen.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual(['HEAD /nohead', 'GET /nohead']);
  });
});

describe('the outbound client', () => {
  it('says why there is no answer: the policy, a timeout, a loop', async () => {
    // A short timeout only where a timeout is the answer: a busy machine may take longer than 300 ms to answer.
    const client = new OutboundClient({ userAgent: 'test', timeoutMs: 10_000, allowLoopback: true });
    const impatient = new OutboundClient({ userAgent: 'test', timeoutMs: 300, allowLoopback: true });
    const strict = new OutboundClient({ userAgent: 'test', timeoutMs: 10_000, allowLoopback: false });
    const failure = async (c: OutboundClient, path: string) => {
      const outcome = await c.request(path.startsWith('http') ? path : `${origin}${path}`, { method: 'HEAD', maxWaitMs: 0 });
      return outcome.ok ? outcome.status : outcome.failure;
    };
    expect(await failure(client, '/metadata')).toBe('blocked');
    expect(await failure(client, '/private')).toBe('blocked');
    expect(await failure(client, 'http://[::ffff:169.254.169.254]/')).toBe('blocked');
    for (const literal of ['[::ffff:0:a9fe:a9fe]', '[64:ff9b:1::a00:1]', '[3fff::1]', '[5f00::1]'])
      expect([literal, await failure(client, `http://${literal}/`)]).toEqual([literal, 'blocked']);
    expect(await failure(impatient, '/slow')).toBe('timeout');
    expect(await failure(client, '/loop-a')).toBe('redirect_loop');
    expect(await failure(client, '/moved')).toBe(200);
    expect(await failure(client, `http://localhost:${new URL(origin).port}/ok`)).toBe(200); // by name, through the guarded lookup
    expect(await failure(client, 'http://no-such-host.invalid/')).toBe('dns');
    expect(await failure(strict, '/ok')).toBe('blocked');
    expect(await failure(strict, `http://localhost:${new URL(origin).port}/ok`)).toBe('blocked');
  });
});

describe('health in the API', () => {
  it('shows in details.health with checked and since, moving since only when the status changes', async () => {
    const id = await add(`${origin}/ok?since`);
    expect((await detail(id)).health).toEqual({ status: 'unknown', code: null, checked: null, since: null });
    const first = await check(id);
    expect(first).toEqual({ status: 'ok', code: 200, checked: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), since: first.checked });
    expect((await detail(id)).health).toEqual(first);
    const again = await check(id);
    expect(again.since).toBe(first.since);
  });

  it('filters the list with ?health=, and each entry carries its health', async () => {
    const broken = await add(`${origin}/missing?list`);
    const fine = await add(`${origin}/ok?list`);
    await check(broken);
    await check(fine);
    const ids = async (status: string) =>
      (await call('GET', `/api/urls?health=${status}&limit=100`)).data.urls.map((u: { id: number; health: { status: string } }) => [
        u.id,
        u.health.status,
      ]);
    const listedBroken = await ids('broken');
    expect(listedBroken).toContainEqual([broken, 'broken']);
    expect(listedBroken.every(([, status]: [number, string]) => status === 'broken')).toBe(true);
    expect(await ids('ok')).toContainEqual([fine, 'ok']);
    expect((await ids('broken')).map(([id]: [number]) => id)).not.toContain(fine);
    const bad = await server.call('GET', '/api/urls?health=dead', { key });
    expect(bad.status).toBe(400);
  });

  it("answers 404 for another account's link", async () => {
    const id = await add(`${origin}/ok?mine`);
    const res = await server.call('POST', `/api/url/${id}/check`, { key: otherKey });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 1, code: 'not_found' });
  });

  it('healthcheck: false turns checks off, reads back and shows unknown', async () => {
    const id = await add(`${origin}/missing?off`, { healthcheck: false });
    expect(await detail(id)).toMatchObject({ healthcheck: false, fallbackurl: '' });
    const before = seen.length;
    expect(await check(id)).toMatchObject({ status: 'unknown', code: null });
    expect(seen.length).toBe(before);
    await call('PUT', `/api/url/${id}/update`, { url: `${origin}/missing?off`, healthcheck: true });
    expect(await detail(id)).toMatchObject({ healthcheck: true });
    expect(await check(id)).toMatchObject({ status: 'broken', code: 404 });
    const off = await call('GET', '/api/urls?health=unknown&limit=100');
    expect(off.data.urls.map((u: { id: number }) => u.id)).not.toContain(id);
  });
});

describe('fallbackurl', () => {
  it('sends visitors there while the destination is broken, and back once it recovers', async () => {
    flaky = 200;
    const { shorturl } = await call('POST', '/api/url/add', { url: `${origin}/flaky`, fallbackurl: 'https://example.com/sorry' });
    const path = new URL(shorturl as string).pathname;
    const id = (await call('GET', '/api/urls?limit=1')).data.urls[0].id as number;
    expect(await detail(id)).toMatchObject({ fallbackurl: 'https://example.com/sorry', healthcheck: true });
    const location = async () => (await server.visit(path)).headers.location;
    expect(await location()).toBe(`${origin}/flaky`);
    expect(await location()).toBe(`${origin}/flaky`); // now cached
    flaky = 503;
    expect(await check(id)).toMatchObject({ status: 'broken', code: 503 });
    expect(await location()).toBe('https://example.com/sorry');
    flaky = 200;
    expect(await check(id)).toMatchObject({ status: 'ok' });
    expect(await location()).toBe(`${origin}/flaky`);
  });

  it('stops at once when the destination changes, whose health is then unknown until checked', async () => {
    const { id, shorturl } = await call('POST', '/api/url/add', { url: `${origin}/missing?moved`, fallbackurl: 'https://example.com/sorry' });
    const path = new URL(shorturl as string).pathname;
    expect(await check(id)).toMatchObject({ status: 'broken' });
    expect((await server.visit(path)).headers.location).toBe('https://example.com/sorry');
    await call('PUT', `/api/url/${id}/update`, { url: `${origin}/ok?moved` });
    expect((await server.visit(path)).headers.location).toBe(`${origin}/ok?moved`);
    expect((await detail(id)).health).toEqual({ status: 'unknown', code: null, checked: null, since: null });
    await call('PUT', `/api/url/${id}/update`, { url: `${origin}/ok?moved`, title: 'same destination' });
    expect(await check(id)).toMatchObject({ status: 'ok' });
    await call('PUT', `/api/url/${id}/update`, { url: `${origin}/ok?moved`, title: 'still the same' });
    expect((await detail(id)).health).toMatchObject({ status: 'ok', code: 200 });
  });

  it('replaces only the broken destinations: a visitor bound for a healthy one still goes there', async () => {
    flaky = 503;
    const body = {
      url: `${origin}/ok?own`,
      fallbackurl: 'https://example.com/sorry',
      rules: [
        { conditions: [{ type: 'query', name: 'flaky' }], url: `${origin}/flaky?rule` },
        { conditions: [{ type: 'query', name: 'fine' }], url: `${origin}/ok?rule` },
        {
          conditions: [{ type: 'query', name: 'ab' }],
          split: [
            { url: `${origin}/ok?a`, weight: 1 },
            { url: `${origin}/missing?b`, weight: 1 },
          ],
        },
      ],
      devicetarget: [{ device: 'iPhone', link: `${origin}/missing?iphone` }],
    };
    const { id, shorturl } = await call('POST', '/api/url/add', body);
    const path = new URL(shorturl as string).pathname;
    const location = async (query = '', agent = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0') =>
      (await server.visit(`${path}${query}`, { headers: { 'user-agent': agent } })).headers.location;
    expect(await check(id)).toMatchObject({ status: 'broken' });
    expect(await location()).toBe(`${origin}/ok?own`);
    expect(await location('?fine')).toBe(`${origin}/ok?rule`);
    expect(await location('?flaky')).toBe('https://example.com/sorry');
    expect(await location('', UA.iphone)).toBe('https://example.com/sorry');
    // Each visitor keeps a variant: over many visitors both are served, the broken one as the fallback.
    const variants = await Promise.all(Array.from({ length: 24 }, (_, i) => location('?ab', `${UA.linuxFirefox} visitor/${i}`)));
    expect(new Set(variants)).toEqual(new Set([`${origin}/ok?a`, 'https://example.com/sorry']));
    // One destination recovers while others stay broken: the link stays broken, and that visitor goes there again.
    flaky = 200;
    expect(await check(id)).toMatchObject({ status: 'broken', code: 404 });
    expect(await location('?flaky')).toBe(`${origin}/flaky?rule`);
    expect(await location('', UA.iphone)).toBe('https://example.com/sorry');
    // A row per broken destination (docs/decisions/0010), gone with the link.
    const rows = () =>
      server.ctx.db
        .selectFrom('health_checks')
        .select('status')
        .where('target_kind', '=', `link>${id as number}`)
        .execute();
    expect(await rows()).toEqual([{ status: 'broken' }, { status: 'broken' }]);
    await call('DELETE', `/api/url/${id}/delete`);
    expect(await rows()).toEqual([]);
  });

  it('is checked like a destination and can be cleared', async () => {
    const res = await server.call('POST', '/api/url/add', { key, body: { url: `${origin}/ok`, fallbackurl: 'javascript:alert(1)' } });
    expect(res.status).toBe(400);
    const id = await add(`${origin}/ok?clear`, { fallbackurl: 'https://example.com/x' });
    await call('PUT', `/api/url/${id}/update`, { url: `${origin}/ok?clear`, fallbackurl: '' });
    expect(await detail(id)).toMatchObject({ fallbackurl: '' });
  });
});

describe("rules', splits' and targets' destinations", () => {
  it('are checked too: a broken one makes the link broken, and changing them resets its health', async () => {
    const rule = (url: string) => [{ conditions: [{ type: 'query', name: 'x' }], url }];
    const routed = {
      url: `${origin}/ok?many`,
      split: [
        { url: `${origin}/ok?a`, weight: 1 },
        { url: `${origin}/ok?b`, weight: 1 },
      ],
      geotarget: [{ location: 'Germany', link: `${origin}/ok?de` }],
    };
    const id = await add(routed.url, { ...routed, rules: rule(`${origin}/ok?rule`) });
    seen.length = 0;
    expect(await check(id)).toMatchObject({ status: 'ok' });
    expect(new Set(seen.map((s) => s.path))).toEqual(new Set(['/ok?many', '/ok?a', '/ok?b', '/ok?rule', '/ok?de']));
    await call('PUT', `/api/url/${id}/update`, { ...routed, rules: rule(`${origin}/missing?rule`) });
    expect((await detail(id)).health).toMatchObject({ status: 'unknown' });
    expect(await check(id)).toMatchObject({ status: 'broken', code: 404 });
  });
});

describe('the address policy without the test flag', () => {
  it('refuses loopback, by literal address and by name', async () => {
    const strict = await startServer({ HEALTH_INTERVAL_S: '0', OUTBOUND_TIMEOUT_MS: '2000' });
    try {
      const strictKey = (await strict.user()).apiKey;
      const before = seen.length;
      const port = new URL(origin).port;
      for (const url of [`${origin}/ok`, `http://localhost:${port}/ok`, `http://[::1]:${port}/ok`]) {
        const id = (await strict.call('POST', '/api/url/add', { key: strictKey, body: { url } })).body.id as number;
        const res = await strict.call('POST', `/api/url/${id}/check`, { key: strictKey });
        expect([url, res.body.health]).toMatchObject([url, { status: 'unreachable', code: null }]);
      }
      expect(seen.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

describe('QR link codes', () => {
  it('are checked by the background rounds, and their detail shows the health', async () => {
    const qr = (await call('POST', '/api/qr/add', { type: 'link', data: { url: `${origin}/missing?qr` }, name: 'menu' })).id as number;
    const text = (await call('POST', '/api/qr/add', { type: 'text', data: 'hello', name: 'note' })).id as number;
    expect((await call('GET', `/api/qr/${qr}`)).details.health).toEqual({ status: 'unknown', code: null, checked: null, since: null });
    const checker = new HealthChecker(server.ctx, { intervalS: 3600, firstCheckS: 0 });
    try {
      while ((await checker.round()) > 0);
    } finally {
      await checker.close();
    }
    expect(seen.map((s) => s.path)).toContain('/missing?qr');
    expect((await call('GET', `/api/qr/${qr}`)).details.health).toMatchObject({ status: 'broken', code: 404 });
    expect((await call('GET', `/api/qr/${text}`)).details).not.toHaveProperty('health');
    await call('PUT', `/api/qr/${qr}/update`, { data: { url: `${origin}/ok?qr` } });
    expect((await call('GET', `/api/qr/${qr}`)).details.health).toMatchObject({ status: 'unknown' });
  });
});

describe('the lease', () => {
  it('lets two checkers on one database check each due link once', async () => {
    const other = await startServer({ DATABASE_URL: server.config.DATABASE_URL, HEALTH_INTERVAL_S: '0', OUTBOUND_ALLOW_LOOPBACK: 'true' });
    const checkers = [
      new HealthChecker(server.ctx, { intervalS: 3600, firstCheckS: 0 }),
      new HealthChecker(other.ctx, { intervalS: 3600, firstCheckS: 0 }),
    ];
    try {
      // Everything added so far is due too: let the checkers settle it first.
      while ((await Promise.all(checkers.map((c) => c.round()))).some((n) => n > 0));
      const paths = Array.from({ length: 12 }, (_, i) => `/ok?lease=${i}`);
      for (const path of paths) await add(`${origin}${path}`);
      const before = seen.length;
      let checked = 0;
      for (;;) {
        const rounds = await Promise.all(checkers.map((c) => c.round()));
        checked += rounds[0]! + rounds[1]!;
        if (rounds.every((n) => n === 0)) break;
      }
      const visits = seen.slice(before).map((s) => s.path);
      expect(checked).toBe(paths.length);
      expect(visits.sort()).toEqual([...paths].sort());
    } finally {
      await Promise.all(checkers.map((c) => c.close()));
      await other.close();
    }
  });
});
