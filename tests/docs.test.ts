import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server.close());

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
