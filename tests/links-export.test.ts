import v8 from 'node:v8';
import vm from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinks as insertLinks } from '../src/features/links/write/pipeline.js';
import { csvRecords, exportedLinks } from './helpers/csv.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

const post = async (path: string, body: unknown, k = key) => {
  const res = await server.call('POST', path, { key: k, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const targetMap = (json: string, name: string) =>
  Object.fromEntries((JSON.parse(json) as Array<Record<string, string>>).map((t) => [t[name], t.link]));

describe('GET /api/urls/export', () => {
  it("writes every field of each link's detail, plus its clicks, and what url/add took", async () => {
    const domain = (await post('/api/domain/add', { domain: 'https://go.export.example' })).id;
    const pixel = (await post('/api/pixel/add', { type: 'analyticspixel', name: 'p', tag: 'G-1' })).id;
    const campaign = (await post('/api/campaign/add', { name: 'c' })).id;
    const splash = (await post('/api/splash/add', { name: 's', title: 'T', content: 'C' })).id;
    const full = await post('/api/url/add', {
      url: 'https://example.com/full?a=1',
      custom: 'export-full',
      domain: 'go.export.example',
      type: String(splash),
      password: 'pw',
      expiry: '2099-01-02 03:04:05',
      title: 'Title, "quoted"',
      description: 'Line one\nline two',
      metatitle: 'MT',
      metadescription: 'MD',
      metaimage: 'https://example.com/i.png',
      geotarget: [{ location: 'Germany', link: 'https://example.de/' }],
      devicetarget: [{ device: 'iPhone', link: 'https://example.com/ios' }],
      languagetarget: [{ language: 'fr', link: 'https://example.fr/' }],
      parameters: [{ name: 'utm_source', value: 'a,b' }],
      pixels: [pixel],
      tags: ['export', 'b-side'],
      campaign,
      rules: [{ conditions: [{ type: 'query', name: 'ref', value: 'a,"b"' }], url: 'https://example.com/ref' }],
      split: [
        { url: 'https://a.example/', weight: 1 },
        { url: 'https://b.example/', weight: 3 },
      ],
      maxvisits: 1000,
      expiredurl: 'https://example.com/over',
    });
    const plain = await post('/api/url/add', { url: 'https://example.com/plain', metatitle: 'Only meta' });
    await server.visit(new URL(plain.shorturl).pathname, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0' } });
    await server.ctx.clicks.flush();

    const rows = await exportedLinks(server, key);
    expect(rows.map((r) => Number(r.id))).toEqual([full.id, plain.id]);
    for (const row of rows) {
      const { details, data } = (await server.call('GET', `/api/url/${row.id}`, { key })).body;
      expect({
        id: Number(row.id),
        shorturl: row.shorturl,
        longurl: row.longurl,
        title: row.title || row.metatitle,
        description: row.description || row.metadescription,
        location: targetMap(row.geotarget!, 'location'),
        device: targetMap(row.devicetarget!, 'device'),
        expiry: row.expiry || null,
        date: row.date,
        custom: row.alias,
        domain: row.domain || null,
        type: row.type,
        password: row.protected === '1',
        geotarget: JSON.parse(row.geotarget!),
        devicetarget: JSON.parse(row.devicetarget!),
        languagetarget: JSON.parse(row.languagetarget!),
        parameters: JSON.parse(row.parameters!),
        metatitle: row.metatitle,
        metadescription: row.metadescription,
        metaimage: row.metaimage,
        pixels: JSON.parse(row.pixels!),
        campaign: row.campaign ? Number(row.campaign) : null,
        channel: null, // the export has no channel column and neither link is in one
        tags: row.tags ? row.tags.split('|') : [],
        health: { ...details.health, status: row.health }, // the export has the status only
        healthcheck: row.healthcheck === '1',
        fallbackurl: row.fallbackurl,
        rules: JSON.parse(row.rules!),
        split: JSON.parse(row.split!),
        maxvisits: row.maxvisits ? Number(row.maxvisits) : null,
        expiredurl: row.expiredurl,
      }).toEqual(details);
      expect({ clicks: Number(row.clicks), uniqueClicks: Number(row.uniqueClicks) }).toEqual({
        clicks: data.clicks,
        uniqueClicks: data.uniqueClicks,
      });
    }
    expect(rows[0]).toMatchObject({
      alias: 'export-full',
      domain: 'https://go.export.example',
      type: String(splash),
      protected: '1',
      password: '',
      metatitle: 'MT',
      metadescription: 'MD',
      metaimage: 'https://example.com/i.png',
      pixels: `[${pixel}]`,
      campaign: String(campaign),
      languagetarget: '[{"language":"fr","link":"https://example.fr/"}]',
      parameters: '[{"name":"utm_source","value":"a,b"}]',
    });
    expect(rows[1]).toMatchObject({ domain: '', type: 'direct', protected: '0', pixels: '[]', campaign: '', clicks: '1', uniqueClicks: '1' });
    expect(domain).toBeGreaterThan(0);
  });

  it('answers a header row only for an account without links, and nothing of another account', async () => {
    const other = (await server.user()).apiKey;
    const res = await server.call('GET', '/api/urls/export', { key: other });
    expect(res.status).toBe(200);
    expect(res.text.trim().split('\n')).toHaveLength(1);
    expect(res.text).toMatch(/^id,alias,domain,shorturl,longurl,/);
    expect((await server.call('GET', '/api/urls/export')).status).toBe(401);
  });

  it("writes a leading apostrophe before every cell a spreadsheet would run as a formula (OWASP's rule)", async () => {
    const k = (await server.user()).apiKey;
    const link = await post(
      '/api/url/add',
      {
        url: 'https://example.com/formula',
        custom: '-2-3',
        title: '=HYPERLINK("https://evil.test","x")',
        description: "+cmd|' /C calc'!A0",
        metatitle: '@SUM(1)',
        metadescription: "'=already quoted",
      },
      k,
    );
    const [row] = await exportedLinks(server, k);
    expect(row).toMatchObject({
      id: String(link.id),
      alias: "'-2-3",
      title: '\'=HYPERLINK("https://evil.test","x")',
      description: "'+cmd|' /C calc'!A0",
      metatitle: "'@SUM(1)",
      metadescription: "''=already quoted",
      longurl: 'https://example.com/formula',
      type: 'direct',
    });
    expect(row!.shorturl).toMatch(/\/-2-3$/); // the cell begins with http: a spreadsheet reads it as text
  });
});

describe('GET /api/url/{id}/clicks/export and /api/qr/{id}/clicks/export', () => {
  it('answer the series of the JSON endpoint as CSV, and 404 for another account', async () => {
    const link = await post('/api/url/add', { url: 'https://example.com/series' });
    const qr = await post('/api/qr/add', { type: 'link', data: { url: 'https://example.com/q' } });
    await server.visit(new URL(link.shorturl).pathname);
    await server.visit(`${new URL(qr.link).pathname}/scan`);
    await server.ctx.clicks.flush();
    for (const path of [`/api/url/${link.id}/clicks`, `/api/qr/${qr.id}/clicks`]) {
      const json = (await server.call('GET', `${path}?interval=week`, { key })).body.data;
      const res = await server.call('GET', `${path}/export?interval=week`, { key });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.text.split('\n')[0]).toBe('date,clicks,uniqueClicks');
      expect(csvRecords(res.text).map((r) => ({ date: r.date, clicks: Number(r.clicks), uniqueClicks: Number(r.uniqueClicks) }))).toEqual(json);
      expect(json.reduce((n: number, p: { clicks: number }) => n + p.clicks, 0)).toBe(1);
      const other = (await server.user()).apiKey;
      expect((await server.call('GET', `${path}/export`, { key: other })).body.code).toBe('not_found');
      expect((await server.call('GET', `${path}/export?interval=year`, { key })).body.code).toBe('invalid_field');
    }
  });
});

describe('an export of 100k links', () => {
  const LINKS = 100_000;
  let bulkKey: string;

  beforeAll(async () => {
    const user = await server.user();
    bulkKey = user.apiKey;
    for (let at = 0; at < LINKS; at += 1000) {
      const items = Array.from({ length: 1000 }, (_, i) => ({
        input: { url: `https://example.com/articles/${at + i}?ref=export-test-with-a-longer-address`, title: `Article number ${at + i}` },
      }));
      const outcomes = await insertLinks(server.ctx, user.id, items);
      expect(outcomes.every((o) => 'id' in o)).toBe(true);
    }
  }, 300_000);

  it('streams with flat memory: a reader that stops holds the server at a page, and the heap stays far below the file', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    // A connection of its own: a pooled one may have been closed at the server's 5 s keep-alive timeout while
    // the 100k inserts above held this process's event loop, and reusing it answers ECONNRESET.
    const dispatcher = new Agent();
    const res = await request(`${server.url}/api/urls/export`, {
      dispatcher,
      headers: { authorization: `Bearer ${bulkKey}` },
      highWaterMark: 16 * 1024,
    });
    expect(res.statusCode).toBe(200);
    let bytes = 0;
    let lines = 0;
    let peak = 0;
    let nextSample = 0;
    const samples: string[] = [];
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      if (bytes < nextSample) continue;
      nextSample = bytes + 2 * 1024 * 1024;
      if (peak === 0) await sleep(500); // a slow reader: the server must wait for it, not read ahead
      const growth = heap() - before;
      samples.push(`${bytes}: ${growth}`);
      peak = Math.max(peak, growth);
    }
    expect(lines, samples.join(', ')).toBe(LINKS + 1);
    expect(bytes).toBeGreaterThan(10 * 1024 * 1024);
    // Holding the export, or the links, would take at least the file's size in heap (measured: under 3 MB for 19 MB).
    expect(peak, samples.join(', ')).toBeLessThan(bytes / 2);
    await dispatcher.close();
  }, 300_000);
});

it('documents the CSV answers and the import in the OpenAPI document', async () => {
  const { paths } = (await server.visit('/api/openapi.json')).body as unknown as { paths: Record<string, any> };
  for (const path of ['/api/urls/export', '/api/url/{id}/clicks/export', '/api/qr/{id}/clicks/export']) {
    expect(Object.keys(paths[path].get.responses['200'].content), path).toEqual(['text/csv']);
  }
  expect(paths['/api/urls/import'].post.description).toContain('Content-Type: text/csv');
  expect(paths['/api/urls/import/{id}'].get.responses['200'].content['application/json'].schema.properties.data.properties).toHaveProperty('errors');
});
