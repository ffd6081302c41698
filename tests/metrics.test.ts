import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { freePort, send, startNode, type NodeProcess } from './helpers/cluster.js';
import { parseMetrics, sample, scrape, type Samples } from './helpers/metrics.js';
import { ensureBuilt } from './helpers/build.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

const TOKEN = 'metrics-token-0123456789';
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' };

async function samples(base: string, token?: string): Promise<Samples> {
  const res = await scrape(base, token);
  expect(res.status).toBe(200);
  return parseMetrics(res.text);
}

/** Scrapes until `done` holds (the click writer works in the background); the test's own timeout bounds it. */
async function scrapeUntil(base: string, token: string, done: (s: Samples) => boolean): Promise<Samples> {
  for (;;) {
    const s = await samples(base, token);
    if (done(s)) return s;
    await sleep(50);
  }
}

describe('one process', () => {
  let server: TestServer;
  let metricsUrl: string;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.answer((_n, path) => ({ status: path === '/ok' ? 200 : 500 }));
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}`;
    // No resident index, so which lookups read the database is exact (resolver.ts: a link is cached from its second read).
    // A minute's backoff: the failing webhook is tried once while the test runs, so its count is exact.
    const webhooks = { OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_BACKOFF_MS: '60000' };
    server = await startServer({ METRICS_TOKEN: TOKEN, METRICS_PORT: String(port), RATE_LIMIT_MAX: '5', LINK_INDEX_MAX: '0', ...webhooks });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('answers /metrics only with the token, as an unknown path answers otherwise, and on METRICS_PORT without one', async () => {
    const unknown = await server.visit('/no-such-alias-here');
    for (const token of [undefined, 'wrong', `${TOKEN}x`, TOKEN.slice(1)]) {
      const res = await scrape(server.url, token);
      expect(res.status).toBe(404);
      expect(res.text).toBe(unknown.text);
    }
    const res = await scrape(server.url, TOKEN);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE redirectory_redirects_total counter');
    const own = await scrape(metricsUrl);
    expect(own.status).toBe(200);
    expect(own.text).toContain('# TYPE redirectory_redirects_total counter');
    expect((await fetch(`${metricsUrl}/other`)).status).toBe(404);
  });

  it('counts exactly the load it was given', async () => {
    const { apiKey } = await server.user(); // RATE_LIMIT_MAX 5: two webhooks, a link and two reads
    for (const path of ['/ok', '/fail']) {
      const hook = await server.call('POST', '/api/webhook/add', { key: apiKey, body: { url: `${receiver.url}${path}`, events: ['link.created'] } });
      expect(hook.status).toBe(200);
    }
    const before = await samples(server.url, TOKEN);
    const added = await server.call('POST', '/api/url/add', { key: apiKey, body: { url: 'https://example.com/metrics' } });
    expect(added.status).toBe(200);
    const alias = String(added.body.shorturl).split('/').pop()!;
    for (let i = 0; i < 7; i++) expect((await server.visit(`/${alias}`, { headers: BROWSER })).status).toBe(302);
    for (let i = 0; i < 4; i++) expect((await server.visit('/zz-missing-alias', { headers: BROWSER })).status).toBe(404);
    for (let i = 0; i < 2; i++) expect((await server.call('GET', '/api/account', { key: apiKey })).status).toBe(200);
    const burst = (await server.user()).apiKey;
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await server.call('GET', '/api/account', { key: burst })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    await receiver.until((got) => got.length >= 2, 'the link.created event at both webhooks');

    const settled = (s: Samples) =>
      sample(s, 'redirectory_click_batch_size_sum') >= 7 && sample(s, 'redirectory_webhook_deliveries_total', { result: 'retry' }) >= 1;
    const after = await scrapeUntil(server.url, TOKEN, settled);
    const delta = (name: string, labels?: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('redirectory_redirects_total', { outcome: 'redirect' })).toBe(7);
    expect(delta('redirectory_redirects_total', { outcome: 'not_found' })).toBe(4);
    expect(delta('redirectory_redirects_total', { outcome: 'expired' })).toBe(0);
    // The link is read twice (cached from its second read), the missing alias once (then remembered); the
    // 404s are looked up twice each, by the lean front and by the route it hands them to.
    expect(delta('redirectory_link_cache_misses_total')).toBe(3);
    expect(delta('redirectory_link_cache_hits_total')).toBe(5 + 7);
    expect(delta('redirectory_rate_limited_total', { scope: 'api' })).toBe(2);
    expect(delta('redirectory_rate_limited_total', { scope: 'public' })).toBe(0);
    const api = (route: string, method: string, status: string) => delta('redirectory_api_request_duration_seconds_count', { method, route, status });
    expect(api('/api/account', 'GET', '2xx')).toBe(7);
    expect(api('/api/account', 'GET', '4xx')).toBe(2);
    expect(api('/api/url/add', 'POST', '2xx')).toBe(1);
    // No raw URL becomes a label: the redirects are not API requests, and routes are patterns.
    expect([...after.keys()].filter((k) => k.includes(alias))).toEqual([]);
    expect(sample(after, 'redirectory_webhook_deliveries_total', { result: 'delivered' })).toBe(1);
    expect(sample(after, 'redirectory_webhook_deliveries_total', { result: 'retry' })).toBe(1);
    expect(sample(after, 'redirectory_click_batch_size_sum')).toBe(7);
    expect(sample(after, 'redirectory_click_batch_write_seconds_count')).toBe(sample(after, 'redirectory_click_batch_size_count'));
    expect(sample(after, 'redirectory_click_batch_write_seconds_sum')).toBeGreaterThan(0);
    expect(sample(after, 'redirectory_click_queue_depth')).toBe(0);
    expect(sample(after, 'redirectory_clicks_dropped_total')).toBe(0);
    expect(after.has('process_cpu_user_seconds_total')).toBe(true);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    if (server.config.DIALECT === 'postgres') {
      expect(sample(after, 'redirectory_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(after.has('redirectory_db_pool_connections{state="waiting"}')).toBe(true);
    } else {
      expect(sample(after, 'redirectory_sqlite_file_bytes', { file: 'db' })).toBeGreaterThan(0);
    }
  });

  it('documents every metric it exports, and the Grafana dashboard graphs only those', async () => {
    const text = (await scrape(server.url, TOKEN)).text;
    const exported = new Set([...text.matchAll(/^# TYPE (redirectory_\w+) /gm)].map((m) => m[1]!));
    const readme = readFileSync('README.md', 'utf8');
    expect([...exported].filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
    const dashboard = JSON.parse(readFileSync('docs/grafana-dashboard.json', 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
    const graphed = new Set(
      dashboard.panels.flatMap((p) =>
        (p.targets ?? []).flatMap((t) => [...t.expr.matchAll(/redirectory_\w+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, ''))),
      ),
    );
    // The pool gauge exists on PostgreSQL only, the file sizes on SQLite only.
    const either = ['redirectory_db_pool_connections', 'redirectory_sqlite_file_bytes'];
    expect([...graphed].filter((name) => !exported.has(name) && !either.includes(name))).toEqual([]);
    expect([...exported].filter((name) => !graphed.has(name))).toEqual([]);
  });

  it('counts a public refusal: password tries past the throttle', async () => {
    const { apiKey } = await server.user();
    const added = await server.call('POST', '/api/url/add', { key: apiKey, body: { url: 'https://example.com/locked', password: 'open sesame' } });
    expect(added.status).toBe(200);
    const alias = String(added.body.shorturl).split('/').pop()!;
    const before = await samples(server.url, TOKEN);
    expect((await server.visit(`/${alias}`, { headers: BROWSER })).status).toBe(200);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await server.visit(`/${alias}`, { method: 'POST', headers: form, body: 'password=wrong' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const after = await samples(server.url, TOKEN);
    expect(
      sample(after, 'redirectory_redirects_total', { outcome: 'password' }) - sample(before, 'redirectory_redirects_total', { outcome: 'password' }),
    ).toBe(1);
    expect(
      sample(after, 'redirectory_rate_limited_total', { scope: 'public' }) - sample(before, 'redirectory_rate_limited_total', { scope: 'public' }),
    ).toBe(1);
  });
});

it('has no /metrics route without METRICS_TOKEN, and no registry without either setting', async () => {
  const port = await freePort();
  const onlyPort = await startServer({ METRICS_PORT: String(port) });
  const off = await startServer();
  try {
    expect((await scrape(onlyPort.url, 'anything-at-all-here')).status).toBe(404);
    expect((await scrape(`http://127.0.0.1:${port}`)).status).toBe(200);
    expect(off.ctx.metrics).toBeNull();
    expect((await scrape(off.url)).status).toBe(404);
  } finally {
    await onlyPort.close();
    await off.close();
  }
});

describe('WORKERS=2', () => {
  let db: ProcessDb;
  let node: NodeProcess;
  let key: string;
  let metricsUrl: string;
  beforeAll(async () => {
    await ensureBuilt(); // the built server: two workers compiling src/ under tsx start slowly on a busy machine
    db = await processDb();
    key = (await db.withCtx((ctx) => createUser(ctx, { email: 'metrics-workers@example.com' }))).apiKey;
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}`;
    node = await startNode(
      'metrics-workers',
      {
        ...db.env,
        WORKERS: '2',
        RATE_LIMIT_MAX: '100000',
        CLICK_FLUSH_MS: '100',
        METRICS_TOKEN: TOKEN,
        METRICS_PORT: String(port),
      },
      { entry: 'dist' },
    );
  }, 300_000);
  afterAll(async () => {
    node?.kill();
    await db?.close();
  });

  it('answers the sum of both workers on the main port (whichever worker takes the scrape) and on METRICS_PORT', async () => {
    const added = await send(node.url, 'POST', '/api/url/add', { key, body: { url: 'https://example.com/workers' } });
    expect(added.status).toBe(200);
    const alias = String(added.body.shorturl).split('/').pop()!;
    // Each on a new connection, so the cluster's round-robin spreads them over both workers.
    for (let i = 0; i < 10; i++) {
      const res = await send(node.url, 'GET', `/${alias}`, { headers: { host: TEST_HOST, connection: 'close', ...BROWSER } });
      expect(res.status).toBe(302);
    }
    for (let i = 0; i < 4; i++) {
      const s = await scrapeUntil(node.url, TOKEN, (x) => sample(x, 'redirectory_click_batch_size_sum') >= 10);
      expect(sample(s, 'redirectory_redirects_total', { outcome: 'redirect' })).toBe(10);
      expect(sample(s, 'redirectory_click_batch_size_sum')).toBe(10);
      expect(sample(s, 'redirectory_api_request_duration_seconds_count', { route: '/api/url/add', status: '2xx' })).toBe(1);
    }
    const own = await samples(metricsUrl);
    expect(sample(own, 'redirectory_redirects_total', { outcome: 'redirect' })).toBe(10);
    expect((await scrape(node.url)).status).toBe(404);
  });
});
