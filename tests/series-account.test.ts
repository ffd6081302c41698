import { describe, expect, it } from 'vitest';
import { hourlyCutoff, rollUpHours } from '../src/clicks/retention.js';
import { A, B, C, nonZero, seriesSuite } from './helpers/series.js';

const t = seriesSuite();
const { post, addLink, visitAt, series } = t;

describe('GET /api/stats/clicks', () => {
  it('sums the account, or one campaign or channel of it, and forgets deleted links', async () => {
    const owner = await t.server.user();
    const campaign = (await post('/api/campaign/add', { name: 'Spring' }, owner.apiKey)).id;
    const channel = (await post('/api/channel/add', { name: 'News' }, owner.apiKey)).id;
    const inCampaign = await addLink(owner.apiKey, { campaign });
    const inChannel = await addLink(owner.apiKey, { channel });
    const plain = await addLink(owner.apiKey);
    const strangers = await addLink(t.other);
    await visitAt('2026-05-10T12:00:00Z', inCampaign.path, [A, B]);
    await visitAt('2026-05-11T12:00:00Z', inChannel.path, [A]);
    await visitAt('2026-05-11T13:00:00Z', plain.path, [C, C, C]);
    await visitAt('2026-05-11T13:00:00Z', strangers.path, [A]);
    await t.server.ctx.clicks.flush();
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
    await t.server.call('DELETE', `/api/url/${plain.id}/delete`, { key: owner.apiKey });
    expect((await account(''))[1]).toEqual({ date: '2026-05-11', clicks: 1, uniqueClicks: 1 });
  });

  it('answers 404 for a campaign or channel of another account and 400 for both at once', async () => {
    const theirs = (await post('/api/campaign/add', { name: 'Theirs' }, t.other)).id;
    const theirChannel = (await post('/api/channel/add', { name: 'Theirs' }, t.other)).id;
    for (const query of [`campaign=${theirs}`, `channel=${theirChannel}`]) {
      const res = await t.server.call('GET', `/api/stats/clicks?${query}`, { key: t.key });
      expect(res.status, query).toBe(404);
      expect(res.body).toMatchObject({ error: 1, code: 'not_found' });
    }
    const both = await t.server.call('GET', `/api/stats/clicks?campaign=${theirs}&channel=${theirChannel}`, { key: t.other });
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
    await t.server.ctx.clicks.flush();
    const url = `/api/url/${link.id}/clicks`;
    const before = await series(url, `from=${old}&to=${old}&interval=hour`);
    expect(nonZero(before).map((p) => p.clicks)).toEqual([2, 2, 1]);

    expect(await rollUpHours(t.server.ctx.db, hourlyCutoff(t.server.config.SERIES_HOURLY_DAYS), { batch: 2 })).toBeGreaterThanOrEqual(3);
    expect(nonZero(await series(url, `from=${old}&to=${old}&interval=hour`))).toEqual([]);
    expect(await series(url, `from=${old}&to=${old}`)).toEqual([{ date: old, clicks: 5, uniqueClicks: 3 }]);
    const totals = (await t.server.call('GET', `/api/url/${link.id}`, { key: t.key })).body.data;
    expect(totals).toMatchObject({ clicks: 5, uniqueClicks: 3 });
  });

  it("rolls the account's own buckets up alike, and a deleted link leaves its rolled-up days", async () => {
    const link = await addLink();
    const old = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    await visitAt(`${old}T08:10:00Z`, link.path, [A, B]);
    await visitAt(`${old}T20:10:00Z`, link.path, [A, C, C]);
    await t.server.ctx.clicks.flush();
    const account = (interval: string) => series('/api/stats/clicks', `from=${old}&to=${old}&interval=${interval}`);
    expect(nonZero(await account('hour')).map((p) => p.clicks)).toEqual([2, 3]);

    await rollUpHours(t.server.ctx.db, hourlyCutoff(t.server.config.SERIES_HOURLY_DAYS), { batch: 1 });
    expect(nonZero(await account('hour'))).toEqual([]);
    expect(await account('day')).toEqual([{ date: old, clicks: 5, uniqueClicks: 3 }]);
    await t.server.call('DELETE', `/api/url/${link.id}/delete`, { key: t.key });
    expect(await account('day')).toEqual([{ date: old, clicks: 0, uniqueClicks: 0 }]);
  });
});
