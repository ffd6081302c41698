import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedLinks, importCsv, toCsv } from './helpers/csv.js';
import { startServer, type TestServer } from './helpers/server.js';

/** Tags (extension): on add, update, bulk, import and export; the list filter; GET /api/tags with rename, merge and delete. */
let server: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  [key, otherKey] = [(await server.user()).apiKey, (await server.user()).apiKey];
});
afterAll(() => server?.close());

const call = async (method: string, path: string, body?: unknown, k = key) => {
  const res = await server.call(method, path, { key: k, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const add = async (body: Record<string, unknown>, k = key) =>
  (await call('POST', '/api/url/add', { url: 'https://example.com/', ...body }, k)).id as number;
const tagsOf = async (id: number, k = key) => (await call('GET', `/api/url/${id}`, undefined, k)).details.tags;
const listed = async (query: string, k = key) =>
  (await call('GET', `/api/urls?${query}`, undefined, k)).data.urls.map((u: { id: number; tags: string[] }) => [u.id, u.tags]);
const tagCounts = async (k = key) => (await call('GET', '/api/tags', undefined, k)).data.tags;

describe('tags on a link', () => {
  it('are trimmed, lower-cased and kept once on add; update replaces them, leaving them out keeps them', async () => {
    const id = await add({ tags: [' Sale ', 'spring', 'SALE'] });
    expect(await tagsOf(id)).toEqual(['sale', 'spring']);
    await call('PUT', `/api/url/${id}/update`, { url: 'https://example.com/b', title: 'kept' });
    expect(await tagsOf(id)).toEqual(['sale', 'spring']);
    await call('PUT', `/api/url/${id}/update`, { url: 'https://example.com/b', tags: ['summer', 'Sale'] });
    expect(await tagsOf(id)).toEqual(['sale', 'summer']);
    await call('PUT', `/api/url/${id}/update`, { url: 'https://example.com/b', tags: [] });
    expect(await tagsOf(id)).toEqual([]);
  });

  it.each([
    ['11 tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }],
    ['an empty tag', { tags: ['ok', '  '] }],
    ['a tag over 50 characters', { tags: ['x'.repeat(51)] }],
    ['a tag with a comma', { tags: ['a,b'] }],
    ['tags that are not a list', { tags: 'sale' }],
  ])('refuses %s with a 400 envelope on add and update, writing nothing', async (_, body) => {
    const res = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/refused', ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 1, code: 'invalid_field', message: expect.stringContaining('tags') });
    const id = await add({ tags: ['before'] });
    const update = await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/changed', ...body } });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject({ error: 1, code: 'invalid_field' });
    expect(await tagsOf(id)).toEqual(['before']);
    expect((await call('GET', `/api/url/${id}`)).details.longurl).toBe('https://example.com/');
  });

  it('go with the link when it is deleted', async () => {
    const user = (await server.user()).apiKey;
    const id = await add({ tags: ['gone'] }, user);
    await call('DELETE', `/api/url/${id}/delete`, undefined, user);
    expect(await tagCounts(user)).toEqual([]);
  });

  it('come from each item of urls/bulk, a bad item failing alone', async () => {
    const user = (await server.user()).apiKey;
    const res = await call(
      'POST',
      '/api/urls/bulk',
      {
        urls: [
          { url: 'https://example.com/1', tags: ['Bulk', 'one'] },
          { url: 'https://example.com/2', tags: [''] },
          { url: 'https://example.com/3', tags: ['bulk'] },
        ],
      },
      user,
    );
    expect(res.data.map((r: { error: number; code?: string }) => r.code ?? r.error)).toEqual([0, 'invalid_field', 0]);
    expect(await tagsOf(res.data[0].id, user)).toEqual(['bulk', 'one']);
    expect(await tagCounts(user)).toEqual([
      { name: 'bulk', count: 2 },
      { name: 'one', count: 1 },
    ]);
  });
});

describe('GET /api/urls?tag= and GET /api/tags', () => {
  let user: string;
  const ids: number[] = [];
  beforeAll(async () => {
    user = (await server.user()).apiKey;
    for (const tags of [['red'], ['red', 'blue'], ['blue'], []]) ids.push(await add({ tags }, user));
    await add({ tags: ['red', 'mine-only'] }, otherKey);
  });

  it('lists each link with its tags, filters by one tag in any case, and by two: all must match', async () => {
    expect(await listed('', user)).toEqual([
      [ids[3], []],
      [ids[2], ['blue']],
      [ids[1], ['blue', 'red']],
      [ids[0], ['red']],
    ]);
    expect((await listed('tag=RED', user)).map(([id]: [number]) => id)).toEqual([ids[1], ids[0]]);
    expect((await listed('tag=red&tag=blue', user)).map(([id]: [number]) => id)).toEqual([ids[1]]);
    expect(await listed('tag=nope', user)).toEqual([]);
    expect((await call('GET', '/api/urls?tag=red', undefined, user)).data.result).toBe(2);
  });

  it("counts the account's tags only, and another account's tags are invisible", async () => {
    expect(await tagCounts(user)).toEqual([
      { name: 'blue', count: 2 },
      { name: 'red', count: 2 },
    ]);
    expect(await listed('tag=mine-only', user)).toEqual([]);
    const rename = await server.call('PUT', '/api/tag/mine-only/update', { key: user, body: { name: 'x' } });
    expect([rename.status, rename.body.code]).toEqual([404, 'not_found']);
    const remove = await server.call('DELETE', '/api/tag/mine-only/delete', { key: user });
    expect([remove.status, remove.body.code]).toEqual([404, 'not_found']);
  });

  it('renames a tag, merges it onto an existing one, and deletes one, on this account only', async () => {
    await call('PUT', '/api/tag/Red/update', { name: ' Crimson ' }, user);
    expect(await tagCounts(user)).toEqual([
      { name: 'blue', count: 2 },
      { name: 'crimson', count: 2 },
    ]);
    await call('PUT', '/api/tag/crimson/update', { name: 'blue' }, user);
    expect(await tagCounts(user)).toEqual([{ name: 'blue', count: 3 }]);
    expect(await tagsOf(ids[1]!, user)).toEqual(['blue']);
    const bad = await server.call('PUT', '/api/tag/blue/update', { key: user, body: { name: 'y'.repeat(51) } });
    expect([bad.status, bad.body.error, bad.body.code]).toEqual([400, 1, 'invalid_field']);
    await call('DELETE', '/api/tag/blue/delete', undefined, user);
    expect(await tagCounts(user)).toEqual([]);
    expect(await listed('', user)).toHaveLength(4);
    expect(await tagCounts(otherKey)).toEqual([
      { name: 'mine-only', count: 1 },
      { name: 'red', count: 1 },
    ]);
  });
});

describe('tags in CSV export and import', () => {
  it('exports tags joined with | and imports them back, also from comma lists', async () => {
    const from = (await server.user()).apiKey;
    await add({ custom: 'csv-tagged', tags: ['b', 'a'] }, from);
    const rows = await exportedLinks(server, from);
    expect(rows[0]).toMatchObject({ alias: 'csv-tagged', tags: 'a|b' });
    const to = (await server.user()).apiKey;
    const extra = { ...rows[0]!, alias: 'csv-comma', tags: 'One, two' };
    const job = await importCsv(server, to, toCsv([{ ...rows[0]!, alias: 'csv-back' }, extra]));
    expect(job).toMatchObject({ status: 'finished', done: 2, failed: 0 });
    expect(await tagCounts(to)).toEqual([
      { name: 'a', count: 1 },
      { name: 'b', count: 1 },
      { name: 'one', count: 1 },
      { name: 'two', count: 1 },
    ]);
  });

  it("reads Shlink's and Bitly's tags columns, and refuses a row with 11 tags alone", async () => {
    const to = (await server.user()).apiKey;
    const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
    await importCsv(server, to, fixture('shlink-short-urls.csv'));
    await importCsv(server, to, fixture('bitly-links.csv'));
    expect(await tagCounts(to)).toEqual([
      { name: 'news', count: 1 },
      { name: 'promo', count: 1 },
      { name: 'tech', count: 1 },
    ]);
    const many = Array.from({ length: 11 }, (_, i) => `t${i}`).join('|');
    const job = await importCsv(
      server,
      to,
      toCsv([
        { longurl: 'https://example.com/m', alias: 'too-many', tags: many },
        { longurl: 'https://example.com/f', alias: 'fine', tags: 'x' },
      ]),
    );
    expect(job).toMatchObject({ done: 1, failed: 1 });
    expect(job.errors[0]).toMatchObject({ row: 2, code: 'invalid_field' });
  });
});
