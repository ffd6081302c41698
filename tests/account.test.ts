import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let email: string;

beforeAll(async () => {
  server = await startServer();
  const user = await server.user();
  key = user.apiKey;
  email = user.email;
});
afterAll(() => server.close());

describe('account', () => {
  it('GET /api/account answers the account of the key', async () => {
    const res = await server.call('GET', '/api/account', { key });
    expect(res.status).toBe(200);
    expect(res.body.error).toBe(0);
    expect(res.body.data).toMatchObject({ email, status: 'pro' });
    expect(res.body.data.registered).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Object.keys(res.body.data).sort()).toEqual(['avatar', 'email', 'expires', 'id', 'registered', 'status', 'username']);
  });

  it('POST /api/account answers like GET, even with an empty JSON body', async () => {
    const res = await server.call('POST', '/api/account', { key, rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(email);
  });

  it('updates e-mail and password, refusing bad ones', async () => {
    const short = await server.call('PUT', '/api/account/update', { key, body: { password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ error: 1, message: expect.stringContaining('8 characters'), code: 'password_short' });
    const bad = await server.call('PUT', '/api/account/update', { key, body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    const wrongType = await server.call('PUT', '/api/account/update', { key, body: { email: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain('email');
    const other = await server.user();
    const taken = await server.call('PUT', '/api/account/update', { key, body: { email: other.email } });
    expect(taken.status).toBe(409);
    const good = await server.call('PUT', '/api/account/update', {
      key,
      body: { email: 'new-address@example.com', password: 'long enough pass', unknown: 1 },
    });
    expect(good.body).toEqual({ error: 0, message: expect.any(String) });
    const after = await server.call('GET', '/api/account', { key });
    expect(after.body.data.email).toBe('new-address@example.com');
    email = 'new-address@example.com';
  });
});

describe('authentication', () => {
  it('refuses a missing or unknown key with 401', async () => {
    for (const authorization of [undefined, 'Bearer nope', 'Bearer ']) {
      const res = await server.call('GET', '/api/account', { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 1, message: 'A valid API key is required to use this service.', code: 'key_required' });
    }
  });

  it('accepts Bearer in any case, Token and a bare key', async () => {
    for (const authorization of [`bearer ${key}`, `BEARER ${key}`, `Token ${key}`, key]) {
      const res = await server.call('GET', '/api/account', { headers: { authorization } });
      expect(res.status).toBe(200);
    }
  });
});

describe('errors and bodies', () => {
  it('answers malformed JSON with 400 and the envelope', async () => {
    const res = await server.call('PUT', '/api/account/update', { key, rawBody: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 1, message: 'The request body is not valid JSON.', code: 'invalid_json' });
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await server.call('PUT', '/api/account/update', { key, body: { email: 'x'.repeat(1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe(1);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await server.call('GET', '/api/nothing-here', { key });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(1);
  });

  it('serves the OpenAPI document without a key', async () => {
    const res = await server.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/api/account']).toBeDefined();
  });
});
