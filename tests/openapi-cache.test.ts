import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

// The OpenAPI document is 2.3 MB: it was serialised anew for every request, uncompressed and without a
// validator, so 16 clients looping on it held the event loop. It is built once and sent from buffers now.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await request(`${server.url}${path}`, { headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
};

/** The compressed forms are made off the event loop after the first request: ask until one comes. */
async function encoded(path: string, encoding: string) {
  for (let i = 0; i < 100; i++) {
    const res = await get(path, { 'accept-encoding': encoding });
    if (res.headers['content-encoding'] === encoding) return res;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never came ${encoding}-encoded`);
}

// First in the file: the first request of a process used to get identity (4.2 and 6.6 MB) while the
// compressed forms were being made; a client that accepts br or gzip now waits for them instead.
it('sends /docs/json and /docs/yaml compressed from their very first request', async () => {
  const [json, yaml] = await Promise.all([get('/docs/json', { 'accept-encoding': 'br' }), get('/docs/yaml', { 'accept-encoding': 'gzip, deflate' })]);
  expect(json.status).toBe(200);
  expect(json.headers['content-encoding']).toBe('br');
  expect(json.headers.etag).toMatch(/^"[\w-]+-br"$/);
  expect(JSON.parse(brotliDecompressSync(json.body).toString('utf8')).openapi).toBe('3.0.3');
  expect(yaml.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(yaml.body).toString('utf8')).toMatch(/^openapi: 3\.0\.3/m);
  expect((await get('/docs/yaml', { 'if-none-match': String(yaml.headers.etag) })).status).toBe(304);
});

it('sends /api/openapi.json with a strong ETag and answers 304 to If-None-Match', async () => {
  const first = await get('/api/openapi.json');
  expect(first.status).toBe(200);
  expect(first.headers['content-type']).toMatch(/^application\/json/);
  expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
  expect(first.headers.vary).toMatch(/accept-encoding/i);
  expect(first.headers['cache-control']).toBe('no-cache');
  const doc = JSON.parse(first.body.toString('utf8'));
  expect(doc.openapi).toBe('3.0.3');
  const again = await get('/api/openapi.json', { 'if-none-match': String(first.headers.etag) });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers.etag).toBe(first.headers.etag);
  expect((await get('/api/openapi.json', { 'if-none-match': '"something-else"' })).status).toBe(200);
});

it('sends it br or gzip as the client accepts, each decoding to the same document, and identity to the rest', async () => {
  const plain = await get('/api/openapi.json', { 'accept-encoding': 'identity' });
  expect(plain.headers['content-encoding']).toBeUndefined();
  const br = await encoded('/api/openapi.json', 'br');
  const gzip = await encoded('/api/openapi.json', 'gzip');
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  expect(br.body.length).toBeLessThan(plain.body.length / 5);
  expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
  expect((await get('/api/openapi.json', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  // A tag of any encoding names the same document.
  expect((await get('/api/openapi.json', { 'if-none-match': String(br.headers.etag) })).status).toBe(304);
});

it("answers the docs page's own /docs/json from the same buffers", async () => {
  const api = await get('/api/openapi.json');
  const docs = await get('/docs/json');
  expect(docs.status).toBe(200);
  expect(docs.body.equals(api.body)).toBe(true);
  expect(docs.headers.etag).toBe(api.headers.etag);
  expect(docs.headers['x-content-type-options']).toBe('nosniff');
  expect((await get('/docs/yaml')).headers.etag).toMatch(/^"[\w-]+"$/);
});

it("sends the docs page's large scripts and styles compressed, with an ETag, like the document", async () => {
  for (const [name, type] of [
    ['swagger-ui-bundle.js', /^application\/javascript/],
    ['swagger-ui-standalone-preset.js', /^application\/javascript/],
    ['swagger-ui.css', /^text\/css/],
  ] as const) {
    const path = `/docs/static/${name}`;
    const [br, plain] = [await get(path, { 'accept-encoding': 'gzip, br' }), await get(path, { 'accept-encoding': 'identity' })];
    expect(br.status, name).toBe(200);
    expect(br.headers['content-encoding'], name).toBe('br');
    expect(br.headers['content-type']).toMatch(type);
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect((await get(path, { 'if-none-match': String(br.headers.etag) })).status).toBe(304);
  }
  // The small files are still the plugin's.
  expect((await get('/docs/static/index.css')).status).toBe(200);
});
