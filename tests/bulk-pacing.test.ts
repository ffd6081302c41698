import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { isPostgresUrl } from './helpers/services.js';
import { BulkGate } from '../src/features/links/write/bulk-gate.js';

// Issue 38 item 14: a bulk call runs in slices between turns of the event loop, one per account at a time.
// PostgreSQL writes a link in about 13 ms of round trips here, so it gets fewer links to keep the file quick.
const PG = isPostgresUrl(process.env.DATABASE_URL);
const LINKS = PG ? 300 : 2000;
const CREATED = PG ? 200 : 1000;

let server: TestServer;
let key: string;
let otherKey: string;
let creatorKey: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  [key, otherKey, creatorKey] = [(await server.user()).apiKey, (await server.user()).apiKey, (await server.user()).apiKey];
});
afterAll(() => server.close());

const urls = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${prefix}/${i}` }));
const bulk = (prefix: string, n: number, k = key) => server.call('POST', '/api/urls/bulk', { key: k, body: { urls: urls(prefix, n) } });
const deleteAll = (k = key) => server.call('POST', '/api/urls/bulk/apply', { key: k, body: { action: 'delete', filter: {} } });
const linkCount = async (k = key): Promise<number> => (await server.call('GET', '/api/urls?limit=1', { key: k })).body.data.result;

/** Polls the account's link count until `done` says so; each poll is a request the server answers mid-job. */
async function countUntil(done: (count: number) => boolean, k = key): Promise<number> {
  for (;;) {
    const count = await linkCount(k);
    if (done(count)) return count;
    await sleep(2); // a breath between polls, so they do not crowd out the job they watch
  }
}

describe('bulk calls share the event loop and run one per account', () => {
  it(`a ${CREATED}-link bulk create lets requests in between its links, and refuses a second bulk of the account`, async () => {
    const running = bulk('create', CREATED, creatorKey);
    // Before slicing, SQLite answered the poll only once every link was made.
    const seen = await countUntil((count) => count > 0, creatorKey);
    expect(seen).toBeLessThan(CREATED);
    const busy = await bulk('second', 1, creatorKey);
    expect(busy.status, String(busy.body?.code)).toBe(429);
    expect(busy.body).toMatchObject({ error: 1, code: 'bulk_busy' });
    expect(busy.headers['retry-after']).toBe('1');
    const created = await running;
    expect(created.status, created.text).toBe(200);
    expect(created.body.data.filter((item: { error: number }) => item.error === 0)).toHaveLength(CREATED);
    expect(await linkCount(creatorKey)).toBe(CREATED);
  });

  it(`deletes ${LINKS} links while /health, other accounts and polls are answered, and refuses a second bulk meanwhile`, async () => {
    for (let made = 0; made < LINKS; made += 1000) expect((await bulk(`seed${made}`, Math.min(1000, LINKS - made))).status).toBe(200);
    expect((await bulk('theirs', 3, otherKey)).status).toBe(200);
    expect(await linkCount()).toBe(LINKS);

    const running = deleteAll();
    await countUntil((count) => count < LINKS); // under way: the poll got in between its links
    const busy = await deleteAll();
    expect(busy.status, String(busy.body?.code)).toBe(429);
    expect(busy.body.code).toBe('bulk_busy');
    expect((await server.call('GET', '/health')).status).toBe(200);
    expect((await bulk('other-account', 2, otherKey)).status).toBe(200); // the gate is per account
    expect(await linkCount()).toBeGreaterThan(0); // all of the above happened while the delete ran

    const done = await running;
    expect(done.status, done.text).toBe(200);
    expect(done.body.result).toBe(LINKS);
    expect(done.body.data.filter((item: { error: number }) => item.error === 0)).toHaveLength(LINKS);
    expect(await linkCount()).toBe(0);
    expect(await linkCount(otherKey)).toBe(5);
    expect((await bulk('after', 1)).status).toBe(200); // the gate opens again
  });
});

describe('BulkGate', () => {
  it('runs two accounts at a time, the next in order, and one job per account', async () => {
    const gate = new BulkGate(2, 1);
    const ends: Array<() => void> = [];
    const started: number[] = [];
    const job = (user: number) => () => new Promise<void>((resolve) => (started.push(user), ends.push(resolve)));
    const runs = [gate.run(1, job(1)), gate.run(2, job(2)), gate.run(3, job(3))];
    await expect(gate.run(1, job(1))).rejects.toMatchObject({ code: 'bulk_busy', status: 429, retryAfter: 1 });
    await expect(gate.run(4, job(4))).rejects.toMatchObject({ code: 'bulk_busy' }); // no waiting place left
    expect(started).toEqual([1, 2]);
    ends.shift()!();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    for (const end of ends.splice(0)) end();
    await Promise.all(runs);
    await expect(gate.run(1, async () => 'again')).resolves.toBe('again');
  });
});
