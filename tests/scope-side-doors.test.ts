import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let owner: string;
let link: number;
let campaign: number;
let channel: number;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  owner = (await server.user()).apiKey;
  link = (await post('/api/url/add', { url: 'https://example.com/door' })).id;
  campaign = (await post('/api/campaign/add', { name: 'Door' })).id;
  channel = (await post('/api/channel/add', { name: 'Door' })).id;
});
afterAll(() => server.close());

async function post(path: string, body: unknown, key = owner) {
  const res = await server.call('POST', path, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const keyWith = async (...scopes: string[]): Promise<string> => (await post('/api/key/add', { name: `k${Math.random()}`, scopes })).key;
const apply = (key: string, body: object) => server.call('POST', '/api/urls/bulk/apply', { key, body: { filter: {}, ...body } });

describe('issue 38 item 8: one scope per thing done, whichever endpoint does it', () => {
  it('bulk/apply assigns to a campaign or channel only with campaigns:write or channels:write, as the per-link assign', async () => {
    const links = await keyWith('links:write');
    for (const body of [
      { action: 'campaign', campaign },
      { action: 'channel', channel },
    ]) {
      const res = await apply(links, body);
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ error: 1, code: 'scope_missing', message: expect.stringContaining(`${body.action}s:write`) });
    }
    expect((await server.call('GET', `/api/url/${link}`, { key: owner })).body.details).toMatchObject({ campaign: null, channel: null });
    expect((await apply(await keyWith('links:write', 'campaigns:write'), { action: 'campaign', campaign })).status).toBe(200);
    expect((await apply(await keyWith('links:write', 'channels:write'), { action: 'channel', channel })).status).toBe(200);
    expect((await server.call('GET', `/api/url/${link}`, { key: owner })).body.details).toMatchObject({ campaign, channel });
  });

  it('GET /api/url/{id} with from or to (the per-day series) needs stats:read; without a range links:read is enough', async () => {
    const reader = await keyWith('links:read');
    expect((await server.call('GET', `/api/url/${link}`, { key: reader })).status).toBe(200);
    for (const query of ['from=2026-01-01', 'to=2026-01-31', 'from=2026-01-01&to=2026-01-31']) {
      const res = await server.call('GET', `/api/url/${link}?${query}`, { key: reader });
      expect(res.status, query).toBe(403);
      expect(res.body).toMatchObject({ error: 1, code: 'scope_missing', message: expect.stringContaining('stats:read') });
    }
    const both = await server.call('GET', `/api/url/${link}?from=2026-01-01`, { key: await keyWith('links:read', 'stats:read') });
    expect(both.status, both.text).toBe(200);
    expect((await server.call('GET', `/api/url/${link}?from=2026-01-01`, { key: owner })).status).toBe(200);
  });
});
