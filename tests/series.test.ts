import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hourlyCutoff, rollUpHours } from '../src/clicks/retention.js';
import { startServer, type TestServer } from './helpers/server.js';
import { UA } from './helpers/user-agents.js';

let server: TestServer;
let key: string;
let other: string;

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: 'true', RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
  other = (await server.user()).apiKey;
});
afterAll(() => server.close());

const A = { ip: '8.8.8.8', ua: UA.iphone };
const B = { ip: '81.2.69.142', ua: UA.windowsChrome };
const C = { ip: '5.9.0.1', ua: UA.macSafari };
const BOT = { ip: '66.249.66.1', ua: UA.googlebot };
type Visitor = typeof A;

async function post(path: string, body: unknown, apiKey = key) {
  const res = await server.call('POST', path, { key: apiKey, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const addLink = async (apiKey = key, extra = {}) => {
  const body = await post('/api/url/add', { url: 'https://example.com/x', ...extra }, apiKey);
  return { id: body.id as number, path: new URL(body.shorturl).pathname };
};
const addQr = async () => {
  const body = await post('/api/qr/add', { type: 'link', data: 'https://example.com/qr' });
  return { id: body.id as number, path: `${new URL(body.link).pathname}/scan` };
};

/** Serves the visits as if the server's clock read `iso` (only Date is faked; it runs on from there). */
async function visitAt(iso: string, path: string, visitors: Visitor[]) {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(iso));
  try {
    for (const { ip, ua } of visitors) {
      const res = await server.visit(path, { headers: { 'user-agent': ua, 'x-forwarded-for': ip } });
      expect(res.status).toBeLessThan(400);
    }
  } finally {
    vi.useRealTimers();
  }
}

const series = async (path: string, query: string, apiKey = key) => {
  const res = await server.call('GET', `${path}?${query}`, { key: apiKey });
  expect(res.status, res.text).toBe(200);
  expect(res.body.error).toBe(0);
  return res.body.data as Array<{ date: string; clicks: number; uniqueClicks: number }>;
};
const nonZero = (data: Array<{ date: string; clicks: number; uniqueClicks: number }>) => data.filter((p) => p.clicks > 0);
const sums = (data: Array<{ clicks: number; uniqueClicks: number }>) =>
  data.reduce((s, p) => ({ clicks: s.clicks + p.clicks, uniqueClicks: s.uniqueClicks + p.uniqueClicks }), { clicks: 0, uniqueClicks: 0 });

describe('GET /api/url/{id}/clicks', () => {
  it('buckets visits by UTC hour, day, week and month across midnight and a month end; the sums equal the totals', async () => {
    const link = await addLink();
    await visitAt('2026-01-31T23:59:00Z', link.path, [A, A, B]);
    await visitAt('2026-02-01T00:00:30Z', link.path, [A, C, BOT]);
    await server.ctx.clicks.flush();
    const url = `/api/url/${link.id}/clicks`;

    const hours = await series(url, 'from=2026-01-31&to=2026-02-01&interval=hour');
    expect(hours).toHaveLength(48);
    expect(hours[0]).toEqual({ date: '2026-01-31 00:00:00', clicks: 0, uniqueClicks: 0 });
    expect(nonZero(hours)).toEqual([
      { date: '2026-01-31 23:00:00', clicks: 3, uniqueClicks: 2 },
      { date: '2026-02-01 00:00:00', clicks: 2, uniqueClicks: 1 },
    ]);
    const days = await series(url, 'from=2026-01-30&to=2026-02-02');
    expect(days).toEqual([
      { date: '2026-01-30', clicks: 0, uniqueClicks: 0 },
      { date: '2026-01-31', clicks: 3, uniqueClicks: 2 },
      { date: '2026-02-01', clicks: 2, uniqueClicks: 1 },
      { date: '2026-02-02', clicks: 0, uniqueClicks: 0 },
    ]);
    // Saturday 31 January and Sunday 1 February share the ISO week of Monday 26 January.
    expect(await series(url, 'from=2026-01-20&to=2026-02-10&interval=week')).toEqual([
      { date: '2026-01-19', clicks: 0, uniqueClicks: 0 },
      { date: '2026-01-26', clicks: 5, uniqueClicks: 3 },
      { date: '2026-02-02', clicks: 0, uniqueClicks: 0 },
      { date: '2026-02-09', clicks: 0, uniqueClicks: 0 },
    ]);
    expect(await series(url, 'from=2025-12-15&to=2026-03-31&interval=MONTH')).toEqual([
      { date: '2025-12-01', clicks: 0, uniqueClicks: 0 },
      { date: '2026-01-01', clicks: 3, uniqueClicks: 2 },
      { date: '2026-02-01', clicks: 2, uniqueClicks: 1 },
      { date: '2026-03-01', clicks: 0, uniqueClicks: 0 },
    ]);
    const totals = (await server.call('GET', `/api/url/${link.id}`, { key })).body.data;
    expect(sums(hours)).toEqual({ clicks: totals.clicks, uniqueClicks: totals.uniqueClicks });
    expect(totals.clicks).toBe(5);
  });

  it('defaults to the 31 days up to today by day, every bucket present', async () => {
    const link = await addLink();
    const data = await series(`/api/url/${link.id}/clicks`, '');
    const today = new Date().toISOString().slice(0, 10);
    expect(data).toHaveLength(31);
    expect(data[30]).toEqual({ date: today, clicks: 0, uniqueClicks: 0 });
    expect(data[0]!.date).toBe(new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10));
  });

  it('answers 400 with the catalogue code for bad dates, intervals and ranges', async () => {
    const link = await addLink();
    const cases: Array<[string, string, string]> = [
      ['from=2026-02-30', 'invalid_field', 'from must be a date written YYYY-MM-DD'],
      ['to=yesterday', 'invalid_field', 'to must be a date'],
      ['interval=year', 'invalid_field', 'interval must be one of hour, day, week, month'],
      ['from=2026-03-02&to=2026-03-01', 'series_range_invalid', 'from (2026-03-02) is after to (2026-03-01)'],
      ['from=2026-01-01&to=2026-02-01&interval=hour', 'series_range_too_large', 'at most 31 days'],
      ['from=2000-01-01&to=2026-01-01', 'series_range_too_large', 'at most 3660 buckets'],
    ];
    for (const [query, code, message] of cases) {
      const res = await server.call('GET', `/api/url/${link.id}/clicks?${query}`, { key });
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ error: 1, code });
      expect(res.body.message).toContain(message);
    }
    expect((await series(`/api/url/${link.id}/clicks`, 'from=2000-01-01&to=2026-01-01&interval=month'))).toHaveLength(313);
  });

  it('answers 404 for a link or QR code of another account', async () => {
    const mine = await addLink();
    const qr = await addQr();
    for (const path of [`/api/url/${mine.id}/clicks`, `/api/qr/${qr.id}/clicks`, '/api/url/999999/clicks']) {
      const res = await server.call('GET', path, { key: other });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ error: 1, code: 'not_found' });
    }
  });
});

describe('GET /api/qr/{id}/clicks', () => {
  it('counts scans per bucket and adds up to the scan totals', async () => {
    const qr = await addQr();
    await visitAt('2026-03-31T22:10:00Z', qr.path, [A, B, BOT]);
    await visitAt('2026-04-01T01:00:00Z', qr.path, [A]);
    await server.ctx.clicks.flush();
    const data = await series(`/api/qr/${qr.id}/clicks`, 'from=2026-03-31&to=2026-04-01&interval=hour');
    expect(nonZero(data)).toEqual([
      { date: '2026-03-31 22:00:00', clicks: 2, uniqueClicks: 2 },
      { date: '2026-04-01 01:00:00', clicks: 1, uniqueClicks: 0 },
    ]);
    const detail = (await server.call('GET', `/api/qr/${qr.id}`, { key })).body.data;
    expect(sums(data)).toEqual({ clicks: detail.clicks, uniqueClicks: detail.uniqueClicks });
  });
});

describe('GET /api/stats/clicks', () => {
  it('sums the account, or one campaign or channel of it, and forgets deleted links', async () => {
    const owner = await server.user();
    const campaign = (await post('/api/campaign/add', { name: 'Spring' }, owner.apiKey)).id;
    const channel = (await post('/api/channel/add', { name: 'News' }, owner.apiKey)).id;
    const inCampaign = await addLink(owner.apiKey, { campaign });
    const inChannel = await addLink(owner.apiKey, { channel });
    const plain = await addLink(owner.apiKey);
    const strangers = await addLink(other);
    await visitAt('2026-05-10T12:00:00Z', inCampaign.path, [A, B]);
    await visitAt('2026-05-11T12:00:00Z', inChannel.path, [A]);
    await visitAt('2026-05-11T13:00:00Z', plain.path, [C, C, C]);
    await visitAt('2026-05-11T13:00:00Z', strangers.path, [A]);
    await server.ctx.clicks.flush();
    const account = (query: string) => series('/api/stats/clicks', `from=2026-05-10&to=2026-05-11&${query}`, owner.apiKey);
    expect(await account('')).toEqual([
      { date: '2026-05-10', clicks: 2, uniqueClicks: 2 },
      { date: '2026-05-11', clicks: 4, uniqueClicks: 2 },
    ]);
    expect(await account(`campaign=${campaign}`)).toEqual([
      { date: '2026-05-10', clicks: 2, uniqueClicks: 2 },
      { date: '2026-05-11', clicks: 0, uniqueClicks: 0 },
    ]);
    expect(nonZero(await account(`channel=${channel}&interval=hour`))).toEqual([{ date: '2026-05-11 12:00:00', clicks: 1, uniqueClicks: 1 }]);
    await server.call('DELETE', `/api/url/${plain.id}/delete`, { key: owner.apiKey });
    expect((await account(''))[1]).toEqual({ date: '2026-05-11', clicks: 1, uniqueClicks: 1 });
  });

  it('answers 404 for a campaign or channel of another account and 400 for both at once', async () => {
    const theirs = (await post('/api/campaign/add', { name: 'Theirs' }, other)).id;
    const theirChannel = (await post('/api/channel/add', { name: 'Theirs' }, other)).id;
    for (const query of [`campaign=${theirs}`, `channel=${theirChannel}`]) {
      const res = await server.call('GET', `/api/stats/clicks?${query}`, { key });
      expect(res.status, query).toBe(404);
      expect(res.body).toMatchObject({ error: 1, code: 'not_found' });
    }
    const both = await server.call('GET', `/api/stats/clicks?campaign=${theirs}&channel=${theirChannel}`, { key: other });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('Send campaign or channel, not both.');
  });
});

describe('hourly bucket retention', () => {
  it('rolls hours older than SERIES_HOURLY_DAYS into days, in small batches, keeping every sum', async () => {
    const link = await addLink();
    const old = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
    await visitAt(`${old}T09:30:00Z`, link.path, [A, B]);
    await visitAt(`${old}T15:30:00Z`, link.path, [A, C]);
    await visitAt(`${old}T23:30:00Z`, link.path, [A]);
    await server.ctx.clicks.flush();
    const url = `/api/url/${link.id}/clicks`;
    const before = await series(url, `from=${old}&to=${old}&interval=hour`);
    expect(nonZero(before).map((p) => p.clicks)).toEqual([2, 2, 1]);

    expect(await rollUpHours(server.ctx.db, hourlyCutoff(server.config.SERIES_HOURLY_DAYS), { batch: 2 })).toBeGreaterThanOrEqual(3);
    expect(nonZero(await series(url, `from=${old}&to=${old}&interval=hour`))).toEqual([]);
    expect(await series(url, `from=${old}&to=${old}`)).toEqual([{ date: old, clicks: 5, uniqueClicks: 3 }]);
    const totals = (await server.call('GET', `/api/url/${link.id}`, { key })).body.data;
    expect(totals).toMatchObject({ clicks: 5, uniqueClicks: 3 });
  });
});
