import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

/** GET /api/urls with the campaign, channel and domain filters (extensions), alone and with search, order and pages. */
let server: TestServer;
let key: string;
let otherKey: string;
const mine = { campaign: 0, campaign2: 0, channel: 0 };
const theirs = { campaign: 0, channel: 0 };
/** My links in creation order; see beforeAll for what each is on. */
const ids: number[] = [];

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  [key, otherKey] = [(await server.user()).apiKey, (await server.user()).apiKey];
  const post = async (path: string, body: unknown, k = key) => {
    const res = await server.call('POST', path, { key: k, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  mine.campaign = (await post('/api/campaign/add', { name: 'Spring' })).id;
  mine.campaign2 = (await post('/api/campaign/add', { name: 'Summer' })).id;
  mine.channel = (await post('/api/channel/add', { name: 'News' })).id;
  theirs.campaign = (await post('/api/campaign/add', { name: 'Theirs' }, otherKey)).id;
  theirs.channel = (await post('/api/channel/add', { name: 'Theirs' }, otherKey)).id;
  await post('/api/domain/add', { domain: 'https://go.example.com' });
  await post('/api/domain/add', { domain: 'https://their.example.com' }, otherKey);
  const links = [
    { title: 'Alpha', campaign: mine.campaign },
    { title: 'Beta', campaign: mine.campaign, channel: mine.channel },
    { title: 'Gamma alpha', campaign: mine.campaign2, domain: 'go.example.com', channel: mine.channel },
    { title: 'Delta', domain: 'https://go.example.com' },
    { title: 'alpha epsilon' },
  ];
  for (const [i, link] of links.entries()) ids.push((await post('/api/url/add', { url: `https://example.com/${i}`, ...link })).id);
  // Their link sits in their campaign, channel and domain: no filter of mine may show it.
  const theirLink = (await post('/api/url/add', { url: 'https://example.com/t', campaign: theirs.campaign, domain: 'their.example.com' }, otherKey))
    .id;
  await post(`/api/channel/${theirs.channel}/assign/links/${theirLink}`, {}, otherKey);
  for (const [i, clicks] of [5, 1, 9, 0, 3].entries()) {
    await server.ctx.db
      .insertInto('click_summaries')
      .values({ target_kind: 'link', target_id: ids[i]!, clicks, uniques: clicks, labels: '{}' })
      .execute();
  }
});
afterAll(() => server?.close());

const list = (query: string, k = key) => server.call('GET', `/api/urls?${query}`, { key: k });
/** The ids listed, as indexes into `ids` (0 = the first link made). */
const shown = async (query: string) => {
  const res = await list(query);
  expect(res.status, res.text).toBe(200);
  return res.body.data.urls.map((u: { id: number }) => ids.indexOf(u.id));
};

describe('GET /api/urls filters', () => {
  it('lists as before without filters, and an empty domain means any domain', async () => {
    expect(await shown('')).toEqual([4, 3, 2, 1, 0]);
    expect(await shown('domain=')).toEqual([4, 3, 2, 1, 0]);
    expect((await list('')).body.data).toMatchObject({ result: 5, perpage: 15, currentpage: 1, nextpage: 0, maxpage: 1 });
  });

  it('keeps the links of a campaign, of a channel, or on a domain named in any spelling', async () => {
    expect(await shown(`campaign=${mine.campaign}`)).toEqual([1, 0]);
    expect(await shown(`campaign=${mine.campaign2}`)).toEqual([2]);
    expect(await shown(`channel=${mine.channel}`)).toEqual([2, 1]);
    for (const domain of ['https://go.example.com', 'go.example.com', 'GO.Example.com.', 'http://go.example.com/', 'go.example.com:443']) {
      expect(await shown(`domain=${encodeURIComponent(domain)}`), domain).toEqual([3, 2]);
    }
    // The service's own host is the default domain, as in a link's `domain` field.
    expect(await shown(`domain=${TEST_HOST}`)).toEqual([4, 1, 0]);
    expect(await shown(`domain=${encodeURIComponent(`http://${TEST_HOST}`)}`)).toEqual([4, 1, 0]);
  });

  it('combines the filters with each other, with the search, the order and the pages', async () => {
    expect(await shown(`campaign=${mine.campaign}&channel=${mine.channel}`)).toEqual([1]);
    expect(await shown(`channel=${mine.channel}&domain=go.example.com`)).toEqual([2]);
    expect(await shown(`campaign=${mine.campaign2}&domain=${TEST_HOST}`)).toEqual([]);
    expect(await shown('q=alpha')).toEqual([4, 2, 0]);
    expect(await shown(`q=alpha&domain=${TEST_HOST}`)).toEqual([4, 0]);
    expect(await shown(`q=ALPHA&campaign=${mine.campaign}`)).toEqual([0]);
    expect(await shown(`order=click&domain=${TEST_HOST}`)).toEqual([0, 4, 1]);
    expect(await shown(`order=click&channel=${mine.channel}`)).toEqual([2, 1]);
    const page2 = await list(`campaign=${mine.campaign}&limit=1&page=2`);
    expect(page2.body.data).toMatchObject({ result: 2, perpage: 1, currentpage: 2, nextpage: 0, maxpage: 2 });
    expect(page2.body.data.urls.map((u: { id: number }) => u.id)).toEqual([ids[0]]);
    expect((await list(`channel=${mine.channel}&limit=1`)).body.data).toMatchObject({ result: 2, nextpage: 2, maxpage: 2 });
    expect((await list(`channel=${mine.channel}&page=9`)).body.data).toMatchObject({ result: 2, currentpage: 9, urls: [] });
  });

  it("answers another account's or an unknown campaign, channel or domain 404, as the account's click series does", async () => {
    const notFound = (what: string) => ({ error: 1, message: `${what} not found.`, code: 'not_found' });
    const cases: Array<[string, string]> = [
      [`campaign=${theirs.campaign}`, 'Campaign'],
      ['campaign=999999', 'Campaign'],
      [`channel=${theirs.channel}`, 'Channel'],
      ['channel=999999', 'Channel'],
      ['domain=their.example.com', 'Domain'],
      ['domain=https%3A%2F%2Fnowhere.example.org', 'Domain'],
      ['domain=not%20a%20host', 'Domain'],
      [`campaign=${mine.campaign}&channel=${theirs.channel}`, 'Channel'],
    ];
    for (const [query, what] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(404);
      expect(res.body, query).toEqual(notFound(what));
    }
    for (const query of [`campaign=${theirs.campaign}`, `channel=${theirs.channel}`]) {
      const series = await server.call('GET', `/api/stats/clicks?${query}`, { key });
      expect([series.status, series.body.code], query).toEqual([404, 'not_found']);
    }
    // Their own filters work for them and show only their link.
    expect((await list(`campaign=${theirs.campaign}&domain=their.example.com&channel=${theirs.channel}`, otherKey)).body.data.result).toBe(1);
  });

  it('refuses an id that is not a positive integer with 400 invalid_field', async () => {
    for (const query of ['campaign=abc', 'campaign=0', 'channel=-1', 'channel=1.5', 'campaign=99999999999']) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('invalid_field');
    }
  });
});
