import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let otherKey: string;

const NEUTRAL = [
  'tagmanagerpixel',
  'analyticspixel',
  'socialnetworkpixel',
  'adspixel',
  'professionalnetworkpixel',
  'microblogpixel',
  'retargetingpixel',
  'questionsitepixel',
  'pinboard',
  'searchengine',
  'chatapp',
  'forum',
  'shortvideo',
];
const PROVIDER = [
  'gtmpixel',
  'gapixel',
  'fbpixel',
  'adwordspixel',
  'linkedinpixel',
  'twitterpixel',
  'adrollpixel',
  'quorapixel',
  'pinterest',
  'bing',
  'snapchat',
  'reddit',
  'tiktok',
];

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
  otherKey = (await server.user()).apiKey;
});
afterAll(() => server.close());

const add = (body: unknown, k = key) => server.call('POST', '/api/pixel/add', { key: k, body });
const list = (query = '', k = key) => server.call('GET', `/api/pixels${query}`, { key: k });

describe('pixels', () => {
  it('adds a pixel and lists it with exact keys', async () => {
    const res = await add({ type: 'analyticspixel', name: ' Site ', tag: 'G-123', extra: 'ignored' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0, id: expect.any(Number) });
    const listed = await list();
    expect(listed.body.error).toBe('0');
    expect(Object.keys(listed.body.data).sort()).toEqual(['currentpage', 'maxpage', 'nextpage', 'perpage', 'pixels', 'result']);
    const entry = listed.body.data.pixels.find((p: { id: number }) => p.id === res.body.id);
    expect(Object.keys(entry).sort()).toEqual(['date', 'id', 'name', 'tag', 'type']);
    expect(entry).toMatchObject({ type: 'analyticspixel', name: 'Site', tag: 'G-123' });
    expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('accepts every neutral type and maps provider identifiers in order', async () => {
    for (const [i, provider] of PROVIDER.entries()) {
      const viaProvider = await add({ type: provider, name: `p${i}`, tag: 't' });
      const viaNeutral = await add({ type: NEUTRAL[i], name: `n${i}`, tag: 't' });
      expect(viaProvider.status).toBe(200);
      expect(viaNeutral.status).toBe(200);
    }
    const all = (await list('?limit=1000')).body.data.pixels as Array<{ name: string; type: string }>;
    for (const [i] of PROVIDER.entries()) {
      expect(all.find((p) => p.name === `p${i}`)?.type).toBe(NEUTRAL[i]);
      expect(all.find((p) => p.name === `n${i}`)?.type).toBe(NEUTRAL[i]);
    }
  });

  it('refuses unknown types listing the allowed values, and empty or missing fields', async () => {
    const bad = await add({ type: 'myspacepixel', name: 'x', tag: 'y' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(1);
    for (const type of NEUTRAL) expect(bad.body.message).toContain(type);
    expect((await add({ type: 'gapixel', name: '  ', tag: 'y' })).body.message).toContain('name');
    expect((await add({ type: 'gapixel', name: 'x', tag: '' })).status).toBe(400);
    const missing = await add({ type: 'gapixel', name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('"tag"');
    const wrongType = await add({ type: 'gapixel', name: 5, tag: 'y' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain('"name"');
    expect((await add({ type: 'gapixel', name: 'x'.repeat(101), tag: 'y' })).status).toBe(400);
    for (const tag of ['<script>alert(1)</script>', 'a b', '"quoted"', 'x'.repeat(129)]) {
      const res = await add({ type: 'gapixel', name: 'x', tag });
      expect(res.status, tag).toBe(400);
      expect(res.body.message).toContain('tag');
    }
    expect((await add({ type: 'gtmpixel', name: 'x', tag: 'GTM-AB12:x_y.z' })).status).toBe(200);
  });

  it('updates the tag and optionally the name; tag is required', async () => {
    const { id } = (await add({ type: 'fbpixel', name: 'Before', tag: 'old' })).body;
    const res = await server.call('PUT', `/api/pixel/${id}/update`, { key, body: { tag: 'new' } });
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    await server.call('PUT', `/api/pixel/${id}/update`, { key, body: { name: 'After', tag: 'newer' } });
    const entry = (await list('?limit=1000')).body.data.pixels.find((p: { id: number }) => p.id === id);
    expect(entry).toMatchObject({ name: 'After', tag: 'newer', type: 'socialnetworkpixel' });
    const noTag = await server.call('PUT', `/api/pixel/${id}/update`, { key, body: { name: 'x' } });
    expect(noTag.status).toBe(400);
    expect(noTag.body.message).toContain('"tag"');
  });

  it('deletes a pixel', async () => {
    const { id } = (await add({ type: 'bing', name: 'gone', tag: 't' })).body;
    const res = await server.call('DELETE', `/api/pixel/${id}/delete`, { key });
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    const again = await server.call('DELETE', `/api/pixel/${id}/delete`, { key });
    expect(again.status).toBe(404);
  });

  it("answers 404 for another account's pixel on update and delete, and hides it from lists", async () => {
    const { id } = (await add({ type: 'tiktok', name: 'mine', tag: 't' })).body;
    const update = await server.call('PUT', `/api/pixel/${id}/update`, { key: otherKey, body: { tag: 'x' } });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ error: 1, message: 'Pixel not found.', code: 'not_found' });
    expect((await server.call('DELETE', `/api/pixel/${id}/delete`, { key: otherKey })).status).toBe(404);
    expect((await server.call('PUT', '/api/pixel/999999/update', { key, body: { tag: 'x' } })).status).toBe(404);
    expect((await list('', otherKey)).body.data).toMatchObject({ result: 0, pixels: [], nextpage: 0, maxpage: 1 });
  });

  it('paginates', async () => {
    const fresh = (await server.user()).apiKey;
    for (let i = 0; i < 5; i++) await add({ type: 'reddit', name: `r${i}`, tag: 't' }, fresh);
    const page2 = (await list('?limit=2&page=2', fresh)).body.data;
    expect(page2).toMatchObject({ result: 5, perpage: 2, currentpage: 2, nextpage: 3, maxpage: 3 });
    expect(page2.pixels.map((p: { name: string }) => p.name)).toEqual(['r2', 'r1']);
    const last = (await list('?limit=2&page=3', fresh)).body.data;
    expect(last).toMatchObject({ nextpage: 0, pixels: [expect.objectContaining({ name: 'r0' })] });
    expect((await list('?limit=2&page=9', fresh)).body.data.pixels).toEqual([]);
  });
});
