import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneDeliveries } from '../src/features/webhooks/access.js';
import { stamp } from '../src/features/webhooks/outbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

/**
 * Issue 38 item 4: anonymous visits cannot fan webhooks out. link.clicked is one delivery per webhook per click
 * batch, the sender takes a fair share of each round per account, and finished deliveries are pruned.
 */
let server: TestServer;
let receiver: Receiver;
/** A second receiver: another host (port) for the outbound client, so its turn never waits on the first's. */
let other: Receiver;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

beforeAll(async () => {
  receiver = await startReceiver();
  other = await startReceiver();
  // Clicks are written only when the test flushes them, so the visits below make exactly one batch.
  server = await startServer({ RATE_LIMIT_MAX: '100000', OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_BACKOFF_MS: '50', CLICK_FLUSH_MS: '600000' });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
  await other.close();
});

async function addHook(key: string, url: string, events: string[]): Promise<number> {
  const added = await server.call('POST', '/api/webhook/add', { key, body: { url, events } });
  expect(added.status, added.text).toBe(200);
  return added.body.id as number;
}

async function deliveriesOf(hook: number) {
  return server.ctx.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook).execute();
}

describe('link.clicked', () => {
  it('queues one delivery per webhook per batch, listing every link clicked', async () => {
    const { apiKey: key } = await server.user();
    const hooks = [
      await addHook(key, `${receiver.url}/clicks-a`, ['link.clicked']),
      await addHook(key, `${receiver.url}/clicks-b`, ['link.clicked']),
    ];
    const links: number[] = [];
    for (let i = 0; i < 12; i++) {
      const added = await server.call('POST', '/api/url/add', { key, body: { url: `https://example.com/fan${i}`, custom: `fan-${i}` } });
      links.push(added.body.id);
      for (let v = 0; v <= i % 3; v++) expect((await server.visit(`/fan-${i}`, { headers: { 'user-agent': BROWSER } })).status).toBe(302);
    }
    await server.ctx.clicks.flush();
    const clicks = links.map((id, i) => ({ id, clicks: (i % 3) + 1 }));
    const total = clicks.reduce((n, c) => n + c.clicks, 0);
    for (const hook of hooks) {
      const rows = await deliveriesOf(hook);
      expect(rows.map((r) => r.event)).toEqual(['link.clicked']);
      const data = JSON.parse(rows[0]!.body).data;
      // The busiest links first; `id` and `clicks` repeat the first, as one-link events had them.
      expect(data.links).toEqual([...clicks].sort((a, b) => b.clicks - a.clicks || a.id - b.id));
      expect(data).toMatchObject({ id: data.links[0].id, clicks: 3, total, more: 0 });
    }
    const got = await receiver.until((all) => hooks.every((_, i) => all.some((r) => r.path === `/clicks-${'ab'[i]}`)), 'both told');
    expect(got.filter((r) => r.json?.event === 'link.clicked')).toHaveLength(2);
  });
});

describe('the sender', () => {
  it("sends another account's new delivery in the first round, whatever one account's backlog", async () => {
    const a = await server.user();
    const b = await server.user();
    const hookA = await addHook(a.apiKey, `${receiver.url}/backlog`, ['link.created']);
    const hookB = await addHook(b.apiKey, `${other.url}/fresh`, ['link.created']);
    const old = stamp(Date.now() - 60_000);
    const row = (webhook: number, n: number, at: string) => ({
      webhook_id: webhook,
      user_id: webhook === hookA ? a.id : b.id,
      event: 'link.created',
      event_id: `evt_fair${webhook}_${n}`,
      body: JSON.stringify({ id: `evt_fair${webhook}_${n}`, event: 'link.created', created: at.slice(0, 19), data: { n } }),
      created_at: at,
      next_at: at,
    });
    // How many of A's had arrived when B's did (the receiver answers as each arrives).
    let sentForA = -1;
    other.answer((_n, path) => {
      if (path === '/fresh' && sentForA < 0) sentForA = receiver.received.filter((r) => r.path === '/backlog').length;
      return { status: 200 };
    });
    // A's backlog, all due for a minute, and B's one delivery due now, queued together: one round sends 16.
    const backlog = Array.from({ length: 200 }, (_, n) => row(hookA, n, old));
    await server.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < backlog.length; i += 50)
        await trx
          .insertInto('webhook_deliveries')
          .values(backlog.slice(i, i + 50))
          .execute();
      await trx
        .insertInto('webhook_deliveries')
        .values(row(hookB, 0, stamp(Date.now())))
        .execute();
    });
    await other.until((all) => all.some((r) => r.path === '/fresh'), "B's delivery");
    // Its first round took B's delivery beside at most 15 of A's (the rounds before the insert found none due).
    expect(sentForA).toBeLessThan(32);
    await receiver.until((all) => all.filter((r) => r.path === '/backlog').length >= 200, "A's backlog");
  });
});

describe('pruning', () => {
  it('deletes delivered and given-up deliveries older than WEBHOOK_KEEP_DAYS, keeps pending ones', async () => {
    const { apiKey: key, id: userId } = await server.user();
    // A receiver answering nothing useful would do: these rows are never due (next_at in a year, or done).
    const hook = await addHook(key, `${receiver.url}/pruned`, ['qr.deleted']);
    const at = (daysAgo: number) => stamp(Date.now() - daysAgo * 86_400_000);
    const future = stamp(Date.now() + 365 * 86_400_000);
    const rows = [
      { status: 'delivered', days: 8, next: null },
      { status: 'failed', days: 8, next: null },
      { status: 'pending', days: 8, next: future },
      { status: 'delivered', days: 6, next: null },
      { status: 'failed', days: 1, next: null },
    ].map((r, n) => ({
      webhook_id: hook,
      user_id: userId,
      event: 'qr.deleted',
      event_id: `evt_prune${n}`,
      body: '{}',
      status: r.status,
      created_at: at(r.days),
      next_at: r.next,
    }));
    await server.ctx.db.insertInto('webhook_deliveries').values(rows).execute();
    expect(server.config.WEBHOOK_KEEP_DAYS).toBe(7);
    expect(await pruneDeliveries(server.ctx, server.config.WEBHOOK_KEEP_DAYS)).toBe(2);
    const left = (await deliveriesOf(hook)).map((r) => r.event_id).sort();
    expect(left).toEqual(['evt_prune2', 'evt_prune3', 'evt_prune4']);
  });
});
