import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROOF_LIMIT } from '../src/features/account/proof.js';
import { formatTimestamp } from '../src/lib/time.js';
import { startServer, type TestServer } from './helpers/server.js';
import { dashboard, PASSWORD, signedInUser, signIn } from './helpers/session.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server.close());

const NEW_PASSWORD = 'a brand new password';
const update = (key: string, body: object) => server.call('PUT', '/api/account/update', { key, body });
const keyOf = async (owner: string, scopes: string[], expires?: string): Promise<string> => {
  const res = await server.call('POST', '/api/key/add', { key: owner, body: { name: `k${Math.random()}`, scopes, expires } });
  expect(res.status, res.text).toBe(200);
  return res.body.key;
};
const inAnHour = () => formatTimestamp(new Date(Date.now() + 3600_000));

describe('issue 38 item 7: a new password or e-mail needs proof of the account', () => {
  it('by API key: a full key that never expires; account:write or an expiring full key is refused 403 full_key_required', async () => {
    const user = await signedInUser(server);
    const scoped = await keyOf(user.apiKey, ['account:write']);
    const expiring = await keyOf(user.apiKey, ['*'], inAnHour());
    for (const key of [scoped, expiring]) {
      for (const body of [{ password: NEW_PASSWORD }, { email: `moved-${Math.random()}@example.com` }]) {
        const res = await update(key, body);
        expect(res.status, res.text).toBe(403);
        expect(res.body).toMatchObject({ error: 1, code: 'full_key_required' });
      }
    }
    // Nothing changed: the old password still signs in, and the unchanged e-mail needs no proof.
    await signIn(server, user.email, PASSWORD);
    expect((await update(scoped, { email: user.email })).status).toBe(200);
    expect((await update(user.apiKey, { password: NEW_PASSWORD })).status).toBe(200);
    await signIn(server, user.email, NEW_PASSWORD);
  });

  it('by dashboard session: the current password as currentpassword, refused 403 current_password_wrong without it', async () => {
    const user = await signedInUser(server);
    const put = (body: object) => dashboard(server, 'PUT', '/api/account/update', { session: user, body });
    for (const body of [{ password: NEW_PASSWORD }, { password: NEW_PASSWORD, currentpassword: 'not the password' }, { email: 'x@example.com' }]) {
      const res = await put(body);
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ error: 1, code: 'current_password_wrong' });
    }
    expect((await put({ email: user.email })).status).toBe(200); // the form always sends the e-mail
    await signIn(server, user.email, PASSWORD);
    const moved = `moved-${Math.random().toString(36).slice(2)}@example.com`;
    const res = await put({ email: moved, password: NEW_PASSWORD, currentpassword: PASSWORD });
    expect(res.status, res.text).toBe(200);
    await signIn(server, moved, NEW_PASSWORD);
  });

  it(`answers 429 signin_throttled after ${PROOF_LIMIT.max} wrong current passwords of an account, the right one included`, async () => {
    const user = await signedInUser(server);
    const put = (currentpassword: string) =>
      dashboard(server, 'PUT', '/api/account/update', { session: user, body: { password: NEW_PASSWORD, currentpassword } });
    for (let i = 0; i < PROOF_LIMIT.max; i++) expect((await put(`guess ${i}`)).status).toBe(403);
    const right = await put(PASSWORD);
    expect(right.status, right.text).toBe(429);
    expect(right.body).toMatchObject({ error: 1, code: 'signin_throttled' });
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    await signIn(server, user.email, PASSWORD); // unchanged, and sign-in is not locked by it
  });
});
