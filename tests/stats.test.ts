import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, isPostgresUrl } from './helpers/services.js';
import { startServer, type TestServer } from './helpers/server.js';
import { UA } from './helpers/user-agents.js';

const ENV = { TRUST_PROXY: 'true', RATE_LIMIT_MAX: '100000' };

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer(ENV);
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function addLink(on: TestServer, apiKey: string): Promise<{ id: number; alias: string }> {
  const res = await on.call('POST', '/api/url/add', { key: apiKey, body: { url: 'https://example.com/landing' } });
  expect(res.status).toBe(200);
  return { id: res.body.id, alias: new URL(res.body.shorturl).pathname.slice(1) };
}

async function hit(on: TestServer, alias: string, ip: string, userAgent: string, referer = '', language = 'en-US,en;q=0.9') {
  const headers: Record<string, string> = { 'user-agent': userAgent, 'accept-language': language, 'x-forwarded-for': ip };
  if (referer) headers.referer = referer;
  const res = await on.visit(`/${alias}`, { headers });
  // People are redirected; crawlers may get the link's preview page instead. Both are served.
  expect(res.status, res.text.slice(0, 200)).toBeLessThan(400);
}

/** 7 visits by 4 people (one visitor's IP is private, so of unknown country) and 3 by crawlers. */
async function visitMix(on: TestServer, alias: string): Promise<void> {
  for (let i = 0; i < 3; i++) await hit(on, alias, '8.8.8.8', UA.iphone, 'https://m.facebook.com/story.php?id=1');
  for (let i = 0; i < 2; i++) await hit(on, alias, '81.2.69.142', UA.windowsChrome, 'https://t.co/AbC');
  await hit(on, alias, '5.9.0.1', UA.macSafari);
  await hit(on, alias, '192.168.1.20', UA.android, 'https://www.google.de/search?q=x', 'de-DE,de;q=0.9');
  await hit(on, alias, '66.249.66.1', UA.googlebot);
  await hit(on, alias, '66.249.66.1', UA.googlebot, 'https://www.google.com/');
  await hit(on, alias, '31.13.64.1', UA.facebookBot, 'https://facebook.com/');
}

const detail = (on: TestServer, id: number, apiKey = key) => on.call('GET', `/api/url/${id}`, { key: apiKey });

/** The test server flushes every 50 ms; statistics must show up well within 2 s. */
async function pollClicks(id: number, clicks: number) {
  const deadline = Date.now() + 10_000; // the writer thread starts on the first batch, slowly on a loaded machine
  for (;;) {
    const res = await detail(server, id);
    if (res.body.data?.clicks >= clicks || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('click statistics through HTTP', () => {
  it('counts served visits of people, not bots, in GET /api/url/{id} and the list', async () => {
    const link = await addLink(server, key);
    await visitMix(server, link.alias);
    await pollClicks(link.id, 7);
    await new Promise((r) => setTimeout(r, 150)); // a late flush must not add the crawlers
    const res = await detail(server, link.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([
      'clicks',
      'socialCount',
      'topBrowsers',
      'topCountries',
      'topDevices',
      'topLanguages',
      'topOs',
      'topReferrers',
      'uniqueClicks',
    ]);
    expect(res.body.data).toEqual({
      clicks: 7,
      uniqueClicks: 4,
      topCountries: { 'United States': 3, 'United Kingdom': 2, Germany: 1, Unknown: 1 },
      topReferrers: { 'm.facebook.com': 3, 't.co': 2, direct: 1, 'google.de': 1 },
      topBrowsers: { Chrome: 3, 'Mobile Safari': 3, Safari: 1 },
      topOs: { iOS: 3, Windows: 2, Android: 1, macOS: 1 },
      topDevices: { mobile: 4, desktop: 3 },
      topLanguages: { en: 6, de: 1 },
      socialCount: { facebook: 3, twitter: 2, google: 0 },
    });
    expect(Object.keys(res.body.data.topCountries)).toEqual(['United States', 'United Kingdom', 'Germany', 'Unknown']);

    const list = await server.call('GET', '/api/urls?limit=100', { key });
    expect(list.body.data.urls.find((u: { id: number }) => u.id === link.id).clicks).toBe(7);
  });

  it("shows zeros, the spec's 0 maps and the always-present networks before any visit", async () => {
    const link = await addLink(server, key);
    await hit(server, link.alias, '66.249.66.1', UA.googlebot);
    await new Promise((r) => setTimeout(r, 150));
    expect((await detail(server, link.id)).body.data).toEqual({
      clicks: 0,
      uniqueClicks: 0,
      topCountries: 0,
      topReferrers: 0,
      topBrowsers: 0,
      topOs: 0,
      topDevices: 0,
      topLanguages: 0,
      socialCount: { facebook: 0, twitter: 0, google: 0 },
    });
  });

  it("counts device kinds and each visitor's first language, Unknown without one", async () => {
    const link = await addLink(server, key);
    await hit(server, link.alias, '8.8.8.8', UA.ipad, '', 'fr-CH, fr;q=0.9, en;q=0.8');
    await hit(server, link.alias, '8.8.4.4', UA.windowsChrome, '', 'en;q=0.5, pt-BR');
    await hit(server, link.alias, '8.8.4.4', UA.windowsChrome, '', '*');
    const res = await pollClicks(link.id, 3);
    expect(res.body.data.topDevices).toEqual({ desktop: 2, tablet: 1 });
    expect(res.body.data.topLanguages).toEqual({ Unknown: 1, fr: 1, pt: 1 });
  });

  it('counts returning visitors as clicks but not as new unique clicks', async () => {
    const link = await addLink(server, key);
    await visitMix(server, link.alias);
    await visitMix(server, link.alias);
    const res = await pollClicks(link.id, 14);
    expect(res.body.data).toMatchObject({ clicks: 14, uniqueClicks: 4, socialCount: { facebook: 6, twitter: 4, google: 0 } });
  });
});

describe('graceful shutdown', () => {
  it('writes every recorded visit before the server stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redirectory-stats-'));
    const schema = isPostgresUrl(process.env.DATABASE_URL) ? await createTestSchema(process.env.DATABASE_URL) : undefined;
    // No timer or size flush can happen before close: only the shutdown flush writes these clicks.
    const env = { ...ENV, DATABASE_URL: schema?.url ?? `sqlite:${join(dir, 'stats.db')}`, CLICK_FLUSH_MS: '600000', CLICK_BATCH_MAX: '100000' };
    try {
      const first = await startServer(env);
      const { apiKey } = await first.user();
      const link = await addLink(first, apiKey);
      const visits = 60;
      await Promise.all(Array.from({ length: visits }, (_, i) => hit(first, link.alias, `81.2.69.${i % 30}`, UA.windowsFirefox)));
      expect(first.ctx.clicks.pending).toBe(visits);
      await first.close();

      const second = await startServer(env);
      try {
        const res = await detail(second, link.id, apiKey);
        expect(res.body.data).toMatchObject({
          clicks: visits,
          uniqueClicks: 30,
          topCountries: { 'United Kingdom': visits },
          topBrowsers: { Firefox: visits },
        });
      } finally {
        await second.close();
      }
    } finally {
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
