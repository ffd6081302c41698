import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/features/account/keys/service.js';
import { CLI_ACTOR } from '../src/http/actor.js';
import { formatTimestamp } from '../src/lib/time.js';
import { startServer, type TestServer } from './helpers/server.js';
import { dashboard, signedInUser } from './helpers/session.js';

let server: TestServer;
beforeAll(async () => {
  // An hour's window: no test here straddles its end.
  server = await startServer({ RATE_LIMIT_MAX: '5', ACCOUNT_RATE_LIMIT_MAX: '8', SESSION_RATE_LIMIT_MAX: '50', RATE_LIMIT_WINDOW_S: '3600' });
});
afterAll(() => server.close());

/** A key made as the CLI makes it, so making it counts against no rate budget. */
const keyFor = async (userId: number, name: string) => (await createApiKey(server.ctx, userId, { name, scopes: ['*'] }, undefined, CLI_ACTOR)).key;
const addKey = (key: string, name: string) => server.call('POST', '/api/key/add', { key, body: { name, scopes: ['links:read'] } });
const get = (key: string) => server.call('GET', '/api/account', { key });

describe('issue 38 item 5: keys and rate budgets per account', () => {
  it('holds at most MAX_KEYS_PER_ACCOUNT (20) live keys: the 21st is refused 409 key_limit; a revoked or expired one makes room', async () => {
    const user = await server.user();
    for (let i = 2; i <= 20; i++) await keyFor(user.id, `k${i}`);
    const refused = await addKey(user.apiKey, 'k21');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ error: 1, code: 'key_limit', message: expect.stringContaining('20') });
    await expect(keyFor(user.id, 'k21')).rejects.toMatchObject({ code: 'key_limit' }); // the CLI too
    const { keys } = (await server.call('GET', '/api/keys', { key: user.apiKey })).body.data;
    expect(keys).toHaveLength(20);
    expect((await server.call('DELETE', `/api/key/${keys.at(-1).id}/delete`, { key: user.apiKey })).status).toBe(200);
    expect((await addKey(user.apiKey, 'k21')).status).toBe(200);
    const past = formatTimestamp(new Date(Date.now() - 1000));
    await server.ctx.db.updateTable('api_keys').set({ expires_at: past }).where('user_id', '=', user.id).where('name', '=', 'k2').execute();
    expect((await addKey(user.apiKey, 'k22')).status).toBe(200);
    // Another account is not counted with this one.
    expect((await addKey((await server.user()).apiKey, 'k2')).status).toBe(200);
  });

  it('counts all keys of an account (and its sessions) against ACCOUNT_RATE_LIMIT_MAX beside each key own budget; another account is unaffected', async () => {
    const user = await signedInUser(server);
    const [one, two] = [await keyFor(user.id, 'one'), await keyFor(user.id, 'two')];
    const other = await server.user();
    const bySession = () => dashboard(server, 'GET', '/api/account', { session: user });
    for (let i = 0; i < 2; i++) expect((await bySession()).status).toBe(200); // 2 of the account's 8
    for (let i = 0; i < 5; i++) expect((await get(one)).status).toBe(200); // 7 of 8
    expect((await get(one)).status).toBe(429); // over its own 5: not counted to the account
    expect((await get(two)).status).toBe(200); // 8 of 8
    const refused = await get(two); // 2 of its own 5, but the account's ninth of 8
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toMatchObject({ error: 1, code: 'rate_limited' });
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '8', 'x-ratelimit-remaining': '0' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(user.apiKey)).status).toBe(429);
    // The owner keeps the dashboard (its own budget), where a runaway key is revoked.
    const session = await bySession();
    expect(session.status).toBe(200);
    expect(session.headers['x-ratelimit-limit']).toBe('50');

    const fresh = await get(other.apiKey);
    expect(fresh.status).toBe(200);
    expect(fresh.headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4' });
  });
});
