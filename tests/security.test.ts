import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrCaches } from '../src/features/qr/cache.js';
import { SIZE_STEPS } from '../src/features/qr/serve.js';
import { fetchImage } from './helpers/qr-images.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * Hostile callers: what the feature tests do not already cover (see tests/redirect-password.test.ts,
 * tests/pages-public.test.ts and each feature's ownership tests for the rest).
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server?.close());

describe('QR images', () => {
  it('render at most one image per size step however many sizes are asked for', async () => {
    const res = await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: 'many sizes' } });
    const slug = new URL(res.body.link).pathname.split('/')[2]!;
    const sizes = Array.from({ length: 120 }, (_, i) => 40 + i * 17); // 40…2063, every one distinct
    const images = await Promise.all(sizes.map((size) => fetchImage(server, `/qr/${slug}?size=${size}`)));
    expect(images.every((image) => image.status === 200)).toBe(true);
    const distinct = new Set(images.map((image) => createHash('sha256').update(image.body).digest('hex')));
    expect(distinct.size).toBe(SIZE_STEPS.length);
    let cached = 0;
    qrCaches(server.ctx).images.deleteWhere((k) => (k.includes(slug) && cached++, false));
    expect(cached).toBe(SIZE_STEPS.length);
  });
});

describe('API documentation page', () => {
  it('sends its own CSP that forbids framing, nosniff and a referrer policy', async () => {
    for (const path of ['/docs', '/docs/', '/docs/static/swagger-initializer.js']) {
      const res = await server.visit(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-security-policy'], path).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      expect(res.headers['content-security-policy'], path).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('link password brute force', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  const guess = (on: TestServer, alias: string, password: string, ip: string) =>
    on.visit(`/${alias}`, { method: 'POST', headers: { ...FORM, 'x-forwarded-for': ip }, body: new URLSearchParams({ password }).toString() });

  it('checks at most 5 guesses per link and client (an IPv6 /64), even when they arrive all at once', async () => {
    const proxied = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
    try {
      const owner = (await proxied.user()).apiKey;
      await proxied.call('POST', '/api/url/add', { key: owner, body: { url: 'https://example.com/vault', custom: 'vault', password: 'correct horse' } });
      const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(proxied, 'vault', `wrong-${i}`, '198.51.100.9')));
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      expect((await guess(proxied, 'vault', 'correct horse', '198.51.100.9')).status).toBe(429);

      // An IPv6 client owns its whole /64: changing the interface part of the address starts no new count.
      for (let i = 1; i <= 5; i++) expect((await guess(proxied, 'vault', 'wrong', `2001:db8:7:1::${i}`)).status).toBe(401);
      expect((await guess(proxied, 'vault', 'correct horse', '2001:db8:7:1:abcd:ef01:2345:6789')).status).toBe(429);
      expect((await guess(proxied, 'vault', 'correct horse', '2001:db8:7:2::1')).status).toBe(303);
    } finally {
      await proxied.close();
    }
  });
});
