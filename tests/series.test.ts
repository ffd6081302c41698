import { describe, expect, it } from 'vitest';
import { A, B, BOT, C, nonZero, seriesSuite, sums } from './helpers/series.js';

const t = seriesSuite();
const { addLink, addQr, visitAt, series } = t;

describe('GET /api/url/{id}/clicks', () => {
  it('buckets visits by UTC hour, day, week and month across midnight and a month end; the sums equal the totals', async () => {
    const link = await addLink();
    await visitAt('2026-01-31T23:59:00Z', link.path, [A, A, B]);
    await visitAt('2026-02-01T00:00:30Z', link.path, [A, C, BOT]);
    await t.server.ctx.clicks.flush();
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
    const totals = (await t.server.call('GET', `/api/url/${link.id}`, { key: t.key })).body.data;
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
      const res = await t.server.call('GET', `/api/url/${link.id}/clicks?${query}`, { key: t.key });
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ error: 1, code });
      expect(res.body.message).toContain(message);
    }
    expect(await series(`/api/url/${link.id}/clicks`, 'from=2000-01-01&to=2026-01-01&interval=month')).toHaveLength(313);
  });

  it('answers 404 for a link or QR code of another account', async () => {
    const mine = await addLink();
    const qr = await addQr();
    for (const path of [`/api/url/${mine.id}/clicks`, `/api/qr/${qr.id}/clicks`, '/api/url/999999/clicks']) {
      const res = await t.server.call('GET', path, { key: t.other });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ error: 1, code: 'not_found' });
    }
  });
});

describe('GET /api/url/{id} with from and to', () => {
  it('counts clicks and unique clicks of the range from the buckets; the label maps stay all-time', async () => {
    const link = await addLink();
    await visitAt('2026-06-30T23:00:00Z', link.path, [A, B]);
    await visitAt('2026-07-01T08:00:00Z', link.path, [A, C, C]);
    await t.server.ctx.clicks.flush();
    const detail = async (query: string) => {
      const res = await t.server.call('GET', `/api/url/${link.id}?${query}`, { key: t.key });
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    };
    expect(await detail('')).toMatchObject({ clicks: 5, uniqueClicks: 3 });
    const july = await detail('from=2026-07-01');
    expect(july).toMatchObject({ clicks: 3, uniqueClicks: 1 });
    expect(Object.values(july.topBrowsers as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(5);
    expect(await detail('to=2026-06-30')).toMatchObject({ clicks: 2, uniqueClicks: 2 });
    expect(await detail('from=2026-07-02&to=2026-07-31')).toMatchObject({ clicks: 0, uniqueClicks: 0 });
    const bad = await t.server.call('GET', `/api/url/${link.id}?from=2026-07-32`, { key: t.key });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 1, code: 'invalid_field' });
  });
});

describe('GET /api/qr/{id}/clicks', () => {
  it('counts scans per bucket and adds up to the scan totals', async () => {
    const qr = await addQr();
    await visitAt('2026-03-31T22:10:00Z', qr.path, [A, B, BOT]);
    await visitAt('2026-04-01T01:00:00Z', qr.path, [A]);
    await t.server.ctx.clicks.flush();
    const data = await series(`/api/qr/${qr.id}/clicks`, 'from=2026-03-31&to=2026-04-01&interval=hour');
    expect(nonZero(data)).toEqual([
      { date: '2026-03-31 22:00:00', clicks: 2, uniqueClicks: 2 },
      { date: '2026-04-01 01:00:00', clicks: 1, uniqueClicks: 0 },
    ]);
    const detail = (await t.server.call('GET', `/api/qr/${qr.id}`, { key: t.key })).body.data;
    expect(sums(data)).toEqual({ clicks: detail.clicks, uniqueClicks: detail.uniqueClicks });
  });
});

describe('hourly buckets written batch after batch', () => {
  it('keeps every hour when batches come in the same hour, a later one and an earlier one; the sums equal the totals', async () => {
    const link = await addLink();
    const batch = async (iso: string, visitors: Array<typeof A>) => {
      await visitAt(iso, link.path, visitors);
      await t.server.ctx.clicks.flush();
    };
    await batch('2026-11-10T10:05:00Z', [A, B]);
    await batch('2026-11-10T10:40:00Z', [A]);
    await batch('2026-11-10T12:10:00Z', [C]);
    await batch('2026-11-10T11:30:00Z', [A, B]);
    await batch('2026-11-10T12:50:00Z', [B]);
    await batch('2026-11-10T13:00:00Z', [A]);
    const url = `/api/url/${link.id}/clicks`;
    const hours = await series(url, 'from=2026-11-10&to=2026-11-10&interval=hour');
    expect(nonZero(hours)).toEqual([
      { date: '2026-11-10 10:00:00', clicks: 3, uniqueClicks: 2 },
      { date: '2026-11-10 11:00:00', clicks: 2, uniqueClicks: 0 },
      { date: '2026-11-10 12:00:00', clicks: 2, uniqueClicks: 1 },
      { date: '2026-11-10 13:00:00', clicks: 1, uniqueClicks: 0 },
    ]);
    expect(await series(url, 'from=2026-11-10&to=2026-11-10')).toEqual([{ date: '2026-11-10', clicks: 8, uniqueClicks: 3 }]);
    const detail = (await t.server.call('GET', `/api/url/${link.id}`, { key: t.key })).body.data;
    expect(sums(hours)).toEqual({ clicks: detail.clicks, uniqueClicks: detail.uniqueClicks });
  });
});
