import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let otherKey: string;
const BASE = `http://${TEST_HOST}`;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  [key, otherKey] = [(await server.user()).apiKey, (await server.user()).apiKey];
});
afterAll(() => server.close());

const bulk = (urls: unknown, k = key) => server.call('POST', '/api/urls/bulk', { key: k, body: { urls } });
const count = async (k: string) => (await server.call('GET', '/api/urls?limit=1', { key: k })).body.data.result;

describe('POST /api/urls/bulk', () => {
  it('answers one result per item in order, and a failed item fails alone', async () => {
    const theirCampaign = (await server.call('POST', '/api/campaign/add', { key: otherKey, body: { name: 'theirs' } })).body.id;
    await server.call('POST', '/api/url/add', { key: otherKey, body: { url: 'https://example.com/x', custom: 'bulk-taken' } });
    const res = await bulk([
      { url: 'https://example.com/one', custom: 'bulk-one', metatitle: 'One' },
      { url: 5 },
      { url: 'https://example.com/taken', custom: 'bulk-taken' },
      { url: 'https://example.com/foreign', campaign: theirCampaign },
      'not an object',
      { url: 'javascript:alert(1)' },
      { url: 'https://example.com/two' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.error).toBe(0);
    const data = res.body.data;
    expect(data).toHaveLength(7);
    expect(data[0]).toEqual({ error: 0, id: expect.any(Number), shorturl: `${BASE}/bulk-one` });
    expect(data[1]).toEqual({ error: 1, message: expect.stringContaining('"url"'), code: 'invalid_field' });
    expect(data[2]).toEqual({ error: 1, message: 'That alias is taken. Please choose another one.', code: 'alias_taken' });
    expect(data[3]).toEqual({ error: 1, message: expect.stringContaining('campaign'), code: 'unknown_reference' });
    expect(data[4]).toMatchObject({ error: 1, code: 'invalid_field' });
    expect(data[5]).toMatchObject({ error: 1, code: 'invalid_field', message: expect.stringContaining('url') });
    expect(data[6]).toEqual({ error: 0, id: expect.any(Number), shorturl: expect.stringMatching(new RegExp(`^${BASE}/[A-Za-z0-9]{7}$`)) });
    expect((await server.call('GET', `/api/url/${data[0].id}`, { key })).body.details).toMatchObject({
      title: 'One',
      longurl: 'https://example.com/one',
    });
    expect((await server.visit('/bulk-one')).headers.location).toBe('https://example.com/one');
    expect(await count(key)).toBe(2);
  });

  it('creates up to 1000 links in one call and refuses more, or none, without creating any', async () => {
    const k = (await server.user()).apiKey;
    const urls = Array.from({ length: 1000 }, (_, i) => ({ url: `https://example.com/many/${i}` }));
    const many = await bulk(urls, k);
    expect(many.status).toBe(200);
    expect(many.body.data.filter((r: { error: number }) => r.error === 0)).toHaveLength(1000);
    expect(new Set(many.body.data.map((r: { id: number }) => r.id)).size).toBe(1000);
    for (const body of [[...urls, { url: 'https://example.com/1001' }], [], 'x', undefined]) {
      const refused = await bulk(body, k);
      expect(refused.status, String(Array.isArray(body) ? body.length : body)).toBe(400);
      expect(refused.body).toEqual({ error: 1, message: expect.stringContaining('urls'), code: 'invalid_field' });
    }
    expect(await count(k)).toBe(1000);
  }, 60_000);
});
