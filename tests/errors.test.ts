import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS } from '../src/lib/errors.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

describe('the error catalogue', () => {
  it("answers each failure with its code and status beside the spec's two keys", async () => {
    const cases: Array<[Promise<{ status: number; body: any }>, string]> = [
      [server.call('GET', '/api/urls'), 'key_required'],
      [server.call('GET', '/api/nothing-here', { key }), 'endpoint_not_found'],
      [server.call('GET', '/api/url/999999', { key }), 'not_found'],
      [server.call('POST', '/api/url/add', { key, rawBody: '{"url":', headers: { 'content-type': 'application/json' } }), 'invalid_json'],
      [server.call('POST', '/api/url/add', { key, body: { url: 5 } }), 'invalid_field'],
      [server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com', custom: 'api' } }), 'alias_reserved'],
      [server.call('POST', '/api/url/add', { key, rawBody: 'x', headers: { 'content-type': 'text/csv' } }), 'unsupported_media_type'],
      [server.call('POST', '/api/url/add', { key, body: { url: 'x'.repeat(1024 * 1024) } }), 'body_too_large'],
    ];
    for (const [reply, code] of cases) {
      const res = await reply;
      expect(res.body, code).toEqual({ error: 1, message: expect.any(String), code });
      expect(res.status, code).toBe(ERRORS[code as keyof typeof ERRORS].status);
    }
  });

  it('lists every code in the OpenAPI document and the README', async () => {
    const doc = (await server.visit('/api/openapi.json')).text;
    const schema = JSON.parse(doc).paths['/api/urls'].get.responses['401'].content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['error', 'message', 'code']));
    expect(schema.properties.code.enum).toEqual(ERROR_CODES);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const code of ERROR_CODES) expect(readme, code).toContain(`| \`${code}\` | ${ERRORS[code].status} |`);
  });
});
