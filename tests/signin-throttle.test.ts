import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNIN_LIMITS } from '../src/features/session/sign-in.js';
import { startServer, type TestServer } from './helpers/server.js';
import { dashboard, PASSWORD, signedInUser } from './helpers/session.js';

// Clients are told apart by X-Forwarded-For, which the server believes with TRUST_PROXY.
let server: TestServer;
beforeEach(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
});
afterEach(() => server.close());

const attempt = (email: string, password: string, client: string) =>
  dashboard(server, 'POST', '/api/session', { body: { email, password }, headers: { 'x-forwarded-for': client } });

/** `n` sign-ins with wrong passwords from `client`, one after the other; their statuses. */
async function fail(email: string, client: string, n: number): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < n; i++) statuses.push((await attempt(email, `wrong ${client} ${i}`, client)).status);
  return statuses;
}

describe('sign-in throttling', () => {
  it("never lets a stranger's failures lock the owner out of another client", async () => {
    const owner = await signedInUser(server);
    const stranger = '203.0.113.9';
    const first = await fail(owner.email, stranger, SIGNIN_LIMITS.accountClient);
    expect(first.every((s) => s === 401)).toBe(true);
    expect((await attempt(owner.email, PASSWORD, '198.51.100.7')).status).toBe(200);

    // The stranger's client is refused for this account, even with the right password...
    const more = await fail(owner.email, stranger, SIGNIN_LIMITS.client + 1);
    expect(more.every((s) => s === 429)).toBe(true);
    const refused = await attempt(owner.email, PASSWORD, stranger);
    expect(refused.body).toMatchObject({ error: 1, code: 'signin_throttled' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // ...while the owner signs in from another client (an IPv6 /64 is one client).
    expect((await attempt(owner.email, PASSWORD, '198.51.100.8')).status).toBe(200);
    expect((await attempt(owner.email, PASSWORD, '2001:db8:1:2::5')).status).toBe(200);
  }, 60_000);

  it('counts one IPv6 /64 as one client', async () => {
    const owner = await signedInUser(server);
    const statuses = [];
    for (let i = 0; i <= SIGNIN_LIMITS.accountClient; i++) statuses.push((await attempt(owner.email, 'wrong', `2001:db8:5:6::${i + 1}`)).status);
    expect(statuses.slice(0, SIGNIN_LIMITS.accountClient).every((s) => s === 401)).toBe(true);
    expect(statuses[SIGNIN_LIMITS.accountClient]).toBe(429);
    expect((await attempt(owner.email, PASSWORD, '2001:db8:5:7::1')).status).toBe(200);
  }, 60_000);

  it(`stops an account's sign-ins after ${SIGNIN_LIMITS.accountCeiling} failures an hour from all clients together`, async () => {
    const owner = await signedInUser(server);
    const other = await signedInUser(server);
    const clients = Array.from({ length: SIGNIN_LIMITS.accountCeiling / SIGNIN_LIMITS.accountClient }, (_, i) => `192.0.2.${i + 1}`);
    // A client over its own limit costs the account nothing: its refused tries do not count toward the ceiling.
    expect((await fail(owner.email, clients[0]!, SIGNIN_LIMITS.accountClient + 40)).filter((s) => s === 429)).toHaveLength(40);
    const rest = await Promise.all(clients.slice(1, -1).map((client) => fail(owner.email, client, SIGNIN_LIMITS.accountClient)));
    expect(rest.flat().every((s) => s === 401)).toBe(true);
    expect((await attempt(owner.email, PASSWORD, '198.51.100.1')).status).toBe(200); // a success takes its count back

    expect((await fail(owner.email, clients.at(-1)!, SIGNIN_LIMITS.accountClient)).every((s) => s === 401)).toBe(true);
    const stopped = await attempt(owner.email, PASSWORD, '198.51.100.2');
    expect(stopped.body).toMatchObject({ error: 1, code: 'signin_throttled' });
    const retryAfter = Number(stopped.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SIGNIN_LIMITS.ceilingWindowMs / 1000);
    expect((await attempt(other.email, PASSWORD, '198.51.100.2')).status).toBe(200); // other accounts sign in
    // The ceiling counts the account however its e-mail is spelled.
    expect((await attempt(owner.email.toUpperCase(), PASSWORD, '198.51.100.3')).body).toMatchObject({ code: 'signin_throttled' });
  }, 120_000);
});
