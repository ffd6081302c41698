import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.js';

/**
 * Issue 28's events against a local receiver: each fires with the documented body, signed so that the
 * README's own snippet verifies it; retries against a receiver that fails, then recovers.
 */
let server: TestServer;
let receiver: Receiver;
let key: string;
let hook: { id: number; secret: string };
let verify: (secret: string, rawBody: string, header: string, toleranceS?: number) => boolean;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const ALL = ['link.created', 'link.updated', 'link.deleted', 'qr.created', 'qr.updated', 'qr.deleted', 'link.clicked', 'link.health'];

/** The README's verification snippet, as a module of its own. */
async function readmeSnippet() {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Webhooks (extension)'));
  const code = /```js\n([\s\S]*?)```/.exec(section)![1]!;
  expect(code).toContain('verifyRedirectorySignature');
  const file = join(mkdtempSync(join(tmpdir(), 'redirectory-snippet-')), 'verify.mjs');
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { verifyRedirectorySignature: typeof verify }).verifyRedirectorySignature;
}

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer({ RATE_LIMIT_MAX: '100000', OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_BACKOFF_MS: '50' });
  key = (await server.user()).apiKey;
  const added = await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/hooks`, events: ALL } });
  expect(added.status, added.text).toBe(200);
  hook = added.body;
  verify = await readmeSnippet();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

const events = (name: string) => receiver.received.filter((r) => r.json?.event === name);
const one = async (name: string, match: (data: any) => boolean = () => true) =>
  (await receiver.until((all) => all.some((r) => r.json?.event === name && match(r.json.data)), name)).find(
    (r) => r.json?.event === name && match(r.json.data),
  )!;

describe('webhook events', () => {
  it('link.created, signed so that the README snippet verifies it', async () => {
    const added = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/one', custom: 'wh-one' } });
    const got = await one('link.created', (d) => d.id === added.body.id);
    expect(got.json).toEqual({
      id: expect.stringMatching(/^evt_[\w-]{16,}$/),
      event: 'link.created',
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      data: { id: added.body.id, alias: 'wh-one', shorturl: added.body.shorturl, longurl: 'https://example.com/one' },
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['redirectory-event']).toBe('link.created');
    const header = String(got.headers['redirectory-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(hook.secret, got.body, header)).toBe(true);
    expect(verify(hook.secret, got.body.replace('wh-one', 'wh-two'), header)).toBe(false);
    expect(verify('whsec_wrong', got.body, header)).toBe(false);
    const stale = header.replace(/t=(\d+)/, (_, t: string) => `t=${Number(t) - 3600}`);
    expect(verify(hook.secret, got.body, stale)).toBe(false);
  });

  it('link.created for each link of a bulk add, link.updated and link.deleted', async () => {
    const bulk = await server.call('POST', '/api/urls/bulk', {
      key,
      body: { urls: [{ url: 'https://example.com/b1' }, { url: 'https://example.com/b2' }] },
    });
    const ids = bulk.body.data.map((d: { id: number }) => d.id);
    for (const id of ids) await one('link.created', (d) => d.id === id);
    await server.call('PUT', `/api/url/${ids[0]}/update`, { key, body: { url: 'https://example.com/moved' } });
    const updated = await one('link.updated', (d) => d.id === ids[0]);
    expect(updated.json.data).toEqual({ id: ids[0], alias: expect.any(String), shorturl: expect.any(String), longurl: 'https://example.com/moved' });
    await server.call('DELETE', `/api/url/${ids[1]}/delete`, { key });
    const deleted = await one('link.deleted', (d) => d.id === ids[1]);
    expect(deleted.json.data).toEqual({ id: ids[1], alias: expect.any(String), shorturl: expect.any(String) });
  });

  it('link.created from a CSV import, link.deleted from a bulk delete by filter', async () => {
    const csv = 'longurl,alias\nhttps://example.com/csv-one,wh-csv-one\nhttps://example.com/csv-two,wh-csv-two\n';
    const started = await server.call('POST', '/api/urls/import', { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(started.status, started.text).toBe(200);
    for (const alias of ['wh-csv-one', 'wh-csv-two']) {
      expect((await one('link.created', (d) => d.alias === alias)).json.data).toMatchObject({ longurl: `https://example.com/${alias.slice(3)}` });
    }
    const applied = await server.call('POST', '/api/urls/bulk/apply', { key, body: { filter: { q: 'wh-csv-' }, action: 'delete' } });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.result).toBe(2);
    const ids = applied.body.data.map((d: { id: number }) => d.id);
    for (const id of ids) await one('link.deleted', (d) => d.id === id);
  });

  it('qr.created, qr.updated and qr.deleted', async () => {
    const added = await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: { text: 'hello' }, name: 'Q1' } });
    expect(added.status, added.text).toBe(200);
    const id = added.body.id;
    expect((await one('qr.created', (d) => d.id === id)).json.data).toEqual({ id, name: 'Q1', type: 'text', link: added.body.link });
    await server.call('PUT', `/api/qr/${id}/update`, { key, body: { data: { text: 'bye' }, name: 'Q2' } });
    expect((await one('qr.updated', (d) => d.id === id)).json.data).toEqual({ id, type: 'text', link: added.body.link, name: 'Q2' });
    await server.call('DELETE', `/api/qr/${id}/delete`, { key });
    expect((await one('qr.deleted', (d) => d.id === id)).json.data).toEqual({ id });
  });

  it('link.clicked: one event per batch listing the link with its count, adding up to the clicks', async () => {
    const added = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/clicked', custom: 'wh-clicked' } });
    for (let i = 0; i < 7; i++) expect((await server.visit('/wh-clicked', { headers: { 'user-agent': BROWSER } })).status).toBe(302);
    const listed = (r: { json: any }) => (r.json.data.links as Array<{ id: number; clicks: number }>).find((l) => l.id === added.body.id);
    const mine = () => events('link.clicked').filter((r) => listed(r) !== undefined);
    const sum = () => mine().reduce((n, r) => n + listed(r)!.clicks, 0);
    await receiver.until(() => sum() >= 7, 'seven clicks told');
    expect(sum()).toBe(7);
    expect(mine().length).toBeLessThan(7);
    for (const r of mine()) {
      expect(Object.keys(r.json.data).sort()).toEqual(['clicks', 'id', 'links', 'more', 'total']);
      expect(r.json.data).toMatchObject({ id: added.body.id, clicks: listed(r)!.clicks, total: listed(r)!.clicks, more: 0 });
    }
  });

  it('link.health when a link becomes broken', async () => {
    receiver.answer((_n, path) => ({ status: path.startsWith('/gone') ? 500 : 200 }));
    const added = await server.call('POST', '/api/url/add', { key, body: { url: `${receiver.url}/gone`, custom: 'wh-health' } });
    const checked = await server.call('POST', `/api/url/${added.body.id}/check`, { key });
    expect(checked.body.health.status).toBe('broken');
    const got = await one('link.health', (d) => d.id === added.body.id);
    expect(got.json.data).toEqual({ id: added.body.id, status: 'broken', previous: 'unknown', code: 500 });
    receiver.answer(() => ({ status: 200 }));
  });

  it('lists the deliveries with their state', async () => {
    const res = await server.call('GET', `/api/webhook/${hook.id}/deliveries?limit=100`, { key });
    expect(res.body.data.result).toBeGreaterThan(5);
    const first = res.body.data.deliveries.at(-1);
    expect(first).toEqual({
      id: expect.any(Number),
      event: 'link.created',
      eventId: expect.stringMatching(/^evt_/),
      status: 'delivered',
      attempts: 1,
      responseCode: 200,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      next: null,
    });
  });
});

describe('retries', () => {
  it('retries a receiver that fails, then recovers, with the same event id', async () => {
    let failures = 0;
    receiver.answer((_n, path) => (path === '/flaky' && ++failures <= 3 ? { status: 503 } : { status: 200 }));
    const flaky = (await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/flaky`, events: ['link.deleted'] } })).body;
    const added = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/retry' } });
    await server.call('DELETE', `/api/url/${added.body.id}/delete`, { key });
    const tries = () => receiver.received.filter((r) => r.path === '/flaky');
    await receiver.until(() => tries().length >= 4, 'the fourth attempt');
    expect(new Set(tries().map((r) => r.json.id)).size).toBe(1);
    for (const r of tries()) expect(verify(flaky.secret, r.body, String(r.headers['redirectory-signature']))).toBe(true);
    let delivery: any;
    await until(async () => {
      delivery = (await server.call('GET', `/api/webhook/${flaky.id}/deliveries`, { key })).body.data.deliveries[0];
      return delivery.status === 'delivered';
    }, 'delivered');
    expect(delivery).toMatchObject({ event: 'link.deleted', status: 'delivered', attempts: 4, responseCode: 200, next: null });
    expect(delivery.eventId).toBe(tries()[0]!.json.id);

    const resent = await server.call('POST', `/api/webhook/${flaky.id}/deliveries/${delivery.id}/resend`, { key });
    expect(resent.body).toEqual({ error: 0, message: 'Delivery queued' });
    await receiver.until(() => tries().length >= 5, 'the resent delivery');
    expect(tries()[4]!.json.id).toBe(delivery.eventId);
    receiver.answer(() => ({ status: 200 }));
  });
});
