import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAssets, pickEncoding } from '../src/features/dashboard/assets.js';
import { DASHBOARD_CSP } from '../src/features/dashboard/routes.js';
import { ensureWebBuilt } from './helpers/build.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  await ensureWebBuilt();
  server = await startServer();
}, 180_000); // a first build of the dashboard
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) => server.visit(path, { headers: { 'accept-encoding': 'identity', ...headers } });

describe('the dashboard at /app', () => {
  it('answers index.html for the app and every route of it, revalidated, with its own CSP', async () => {
    for (const path of ['/app', '/app/', '/app/links/12/edit', '/app/setup?token=x']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(res.text).toMatch(/<script type="module" crossorigin src="\/app\/assets\/index-[\w-]+\.js"><\/script>/);
    }
  });

  it('serves hashed assets for a year, compressed with brotli or gzip as the client accepts', async () => {
    const script = /src="\/app\/(assets\/index-[\w-]+\.js)"/.exec((await get('/app')).text)![1]!;
    const plain = await get(`/app/${script}`);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');

    const raw = async (encoding: string) => {
      // undici's request leaves the body as sent (fetch would decode it) and keeps our Host.
      const res = await request(`${server.url}/app/${script}`, { headers: { host: TEST_HOST, 'accept-encoding': encoding } });
      return { encoding: res.headers['content-encoding'], body: Buffer.from(await res.body.arrayBuffer()) };
    };
    const br = await raw('gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.text);
    const gz = await raw('gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.text);
    expect(br.body.length).toBeLessThan(plain.text.length / 2);
  });

  it('answers 404 for a missing asset instead of the page, so a stale tab never runs HTML as a script', async () => {
    const res = await get('/app/assets/index-gone.js');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).not.toContain('javascript');
  });

  it('keeps the alias app for itself', async () => {
    const user = await server.user();
    const res = await server.call('POST', '/api/url/add', { key: user.apiKey, body: { url: 'https://example.com', custom: 'APP' } });
    expect(res.status).toBe(400);
  });

  it("sends another host to the dashboard's own address", async () => {
    const res = await get('/app/links?q=1', { host: 'other.example' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('http://redirectory.test/app/links?q=1');
  });
});

describe('built files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-web-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are nothing until index.html exists, then every file with its precompressed copies', () => {
    expect(loadAssets(join(dir, 'missing'))).toBeNull();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'a-1.js'), 'x');
    expect(loadAssets(dir)).toBeNull();
    writeFileSync(join(dir, 'index.html'), '<p>');
    writeFileSync(join(dir, 'index.html.gz'), 'gz');
    const assets = loadAssets(dir)!;
    expect([...assets.keys()].sort()).toEqual(['assets/a-1.js', 'index.html']);
    const index = assets.get('index.html')!;
    expect(index.immutable).toBe(false);
    expect(assets.get('assets/a-1.js')!.immutable).toBe(true);
    expect(pickEncoding(index, 'br, gzip').encoding).toBe('gzip'); // no brotli copy
    expect(pickEncoding(index, 'gzip;q=0').encoding).toBeUndefined();
    expect(pickEncoding(index, 'x-gzip').encoding).toBeUndefined();
  });
});
