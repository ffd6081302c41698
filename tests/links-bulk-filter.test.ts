import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  [key, otherKey] = [(await server.user()).apiKey, (await server.user()).apiKey];
});
afterAll(() => server.close());

const post = async (path: string, body: unknown, k = key) => {
  const res = await server.call('POST', path, { key: k, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const apply = (body: unknown, k = key) => server.call('POST', '/api/urls/bulk/apply', { key: k, body });
const list = async (query: string, k = key) => (await server.call('GET', `/api/urls?limit=100&${query}`, { key: k })).body.data;
const addMany = async (prefix: string, n: number, k = key, extra = {}) =>
  (
    await post('/api/urls/bulk', { urls: Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${prefix}/${i}`, ...extra })) }, k)
  ).data.map((item: { id: number }) => item.id);

describe('POST /api/urls/bulk/apply', () => {
  it('adds every link matching the filter to a campaign, across pages, and only those of the caller', async () => {
    const spring = await addMany('spring-sale', 27);
    const other = await addMany('autumn', 3);
    const theirs = await addMany('spring-sale', 4, otherKey);
    const campaign = (await post('/api/campaign/add', { name: 'Spring' })).id;

    const res = await apply({ action: 'campaign', campaign, filter: { q: 'spring-sale' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.error).toBe(0);
    expect(res.body.result).toBe(27);
    expect(res.body.data).toHaveLength(27);
    expect(res.body.data.map((item: { id: number }) => item.id)).toEqual(spring);
    expect(res.body.data[0]).toEqual({ error: 0, id: spring[0], shorturl: expect.stringContaining(`http://${TEST_HOST}/`) });

    const inCampaign = await list(`campaign=${campaign}`);
    expect(inCampaign.result).toBe(27);
    expect(inCampaign.urls.map((u: { id: number }) => u.id).sort()).toEqual([...spring].sort());
    for (const id of other) expect((await server.call('GET', `/api/url/${id}`, { key })).body.details.campaign).toBeNull();
    for (const id of theirs) expect((await server.call('GET', `/api/url/${id}`, { key: otherKey })).body.details.campaign).toBeNull();
  });

  it('adds to a channel and deletes by filter, another account untouched; answers per link', async () => {
    const channel = (await post('/api/channel/add', { name: 'News' })).id;
    const news = await addMany('news-item', 5);
    const theirs = await addMany('news-item', 2, otherKey);
    const added = await apply({ action: 'channel', channel, filter: { q: 'news-item' } });
    expect(added.body.data.map((item: { error: number; id: number }) => [item.error, item.id])).toEqual(news.map((id: number) => [0, id]));
    expect((await list(`channel=${channel}`)).result).toBe(5);

    const removed = await apply({ action: 'delete', filter: { channel } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.result).toBe(5);
    expect(removed.body.data.every((item: { error: number }) => item.error === 0)).toBe(true);
    expect((await list('q=news-item')).result).toBe(0);
    expect((await list('q=news-item', otherKey)).result).toBe(2);
    for (const id of theirs) expect((await server.call('GET', `/api/url/${id}`, { key: otherKey })).status).toBe(200);
  });

  it("answers 404 for another account's filter, campaign or channel and 400 for a missing target, changing nothing", async () => {
    const theirCampaign = (await post('/api/campaign/add', { name: 'Theirs' }, otherKey)).id;
    const theirChannel = (await post('/api/channel/add', { name: 'Theirs' }, otherKey)).id;
    await addMany('guarded', 2);
    const cases: Array<[unknown, number, string]> = [
      [{ action: 'campaign', campaign: theirCampaign, filter: { q: 'guarded' } }, 404, 'not_found'],
      [{ action: 'channel', channel: theirChannel, filter: { q: 'guarded' } }, 404, 'not_found'],
      [{ action: 'delete', filter: { campaign: theirCampaign } }, 404, 'not_found'],
      [{ action: 'campaign', filter: { q: 'guarded' } }, 400, 'invalid_field'],
      [{ action: 'rename', filter: {} }, 400, 'invalid_field'],
      [{ action: 'delete' }, 400, 'invalid_field'],
    ];
    for (const [body, status, code] of cases) {
      const res = await apply(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ error: 1, code });
    }
    expect((await list('q=guarded')).result).toBe(2);
  });

  it('refuses a filter matching more than 10000 links whole, before changing any', async () => {
    const { id: ownerId, apiKey: ownerKey } = await server.user();
    const now = '2026-01-01 00:00:00';
    const rows = Array.from({ length: 10_001 }, (_, i) => ({
      user_id: ownerId,
      domain_id: 0,
      alias: `cap-${ownerId}-${i}`,
      long_url: `https://example.com/cap/${i}`,
      title: '',
      description: '',
      type: 'direct',
      splash_id: null,
      overlay_id: null,
      password_hash: null,
      expiry: null,
      geo_targets: '[]',
      device_targets: '[]',
      language_targets: '[]',
      parameters: '[]',
      meta_title: '',
      meta_description: '',
      meta_image: '',
      campaign_id: null,
      created_at: now,
      updated_at: now,
    }));
    for (let at = 0; at < rows.length; at += 25)
      await server.ctx.db
        .insertInto('links')
        .values(rows.slice(at, at + 25))
        .execute();
    const res = await apply({ action: 'delete', filter: {} }, ownerKey);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: 1, code: 'bulk_too_large', message: expect.stringContaining('10,001 links') });
    expect((await list('', ownerKey)).result).toBe(10_001);

    // cap/1000 and cap/10000: under the cap, the same request goes through.
    expect((await apply({ action: 'delete', filter: { q: 'cap/1000' } }, ownerKey)).body.result).toBe(2);
    expect((await list('', ownerKey)).result).toBe(9_999);
  }, 60_000);
});
