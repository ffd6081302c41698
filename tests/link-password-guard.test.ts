import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../src/features/account/service.js';
import { GUESS_LANE } from '../src/features/redirect/decide/guesses.js';
import { Lane } from '../src/infra/lane.js';
import { startServer, type TestServer } from './helpers/server.js';
import { dashboard, PASSWORD } from './helpers/session.js';

// Issue 38 item 10. Clients are told apart by X-Forwarded-For, which the server believes with TRUST_PROXY.
const CEILING = 30;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true', LINK_PASSWORD_CEILING: String(CEILING) });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function protectedLink(custom: string): Promise<void> {
  const res = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/vault', custom, password: 'correct horse' } });
  expect(res.status, res.text).toBe(200);
}

const guess = (alias: string, password: string, ip: string) =>
  server.visit(`/${alias}`, { method: 'POST', headers: { ...FORM, 'x-forwarded-for': ip }, body: new URLSearchParams({ password }).toString() });

describe('link password guessing', () => {
  it(`stops a link's form for everyone after ${CEILING} tries from as many clients, and only that link's`, async () => {
    await protectedLink('ceiling-one');
    await protectedLink('ceiling-two');
    // A right password takes its try back: it does not bring the ceiling nearer.
    expect((await guess('ceiling-one', 'correct horse', '192.0.2.200')).status).toBe(200);
    for (let i = 1; i <= CEILING; i++) expect((await guess('ceiling-one', `wrong-${i}`, `192.0.2.${i}`)).status).toBe(401);

    const refused = await guess('ceiling-one', 'correct horse', '198.51.100.77'); // a new client, the right password
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many attempts');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
    expect((await guess('ceiling-one', 'correct horse', '2001:db8:9::1')).status).toBe(429);
    // Another link of the same account is not affected, nor are visitors who already unlocked.
    expect((await guess('ceiling-two', 'correct horse', '198.51.100.77')).status).toBe(200);
  });

  it('checks link passwords on their own bounded lane: a flood is refused at once and a sign-in completes beside it', async () => {
    await protectedLink('flooded');
    const owner = await server.user();
    await setPassword(server.ctx, owner.email, PASSWORD);

    // The sign-in's hash goes to the shared lane, which no guess enters: it completes while the flood is refused.
    const guesses = Array.from({ length: 40 }, (_, i) => guess('flooded', `wrong-${i}`, `203.0.113.${i + 1}`));
    const signIn = dashboard(server, 'POST', '/api/session', { body: { email: owner.email, password: PASSWORD } });
    const replies = await Promise.all(guesses);
    expect((await signIn).status).toBe(200);

    const checked = replies.filter((reply) => reply.status === 401);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(checked.length + refused.length).toBe(40);
    // Past one running and GUESS_LANE.waiting waiting, a guess is answered without a hash, uncounted.
    expect(refused.length).toBeGreaterThan(0);
    for (const reply of refused) {
      expect(reply.text).toContain('being checked right now');
      expect(reply.headers['retry-after']).toBe('1');
    }
    expect((await guess('flooded', 'correct horse', '198.51.100.99')).status).toBe(200); // the form is still open
  });
});

describe('Lane', () => {
  it('runs `slots` at a time, queues `waiting` more, and refuses the rest without starting them', async () => {
    const lane = new Lane(GUESS_LANE.slots, GUESS_LANE.waiting);
    const releases: Array<() => void> = [];
    let started = 0;
    const work = () =>
      new Promise<void>((resolve) => {
        started++;
        releases.push(resolve);
      });
    const admitted = Array.from({ length: GUESS_LANE.slots + GUESS_LANE.waiting }, () => lane.tryRun(work));
    expect(admitted.every((run) => run !== undefined)).toBe(true);
    expect(lane.tryRun(work)).toBeUndefined();
    await Promise.resolve();
    expect(started).toBe(GUESS_LANE.slots);
    while (releases.length) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(admitted.filter((run) => run !== undefined));
    expect(started).toBe(GUESS_LANE.slots + GUESS_LANE.waiting);
    expect(lane.tryRun(async () => undefined)).toBeDefined(); // room again
  });
});
