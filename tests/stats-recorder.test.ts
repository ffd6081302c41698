import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.js';
import type { TargetKind } from '../src/db/types.js';
import { sql } from 'kysely';
import { pino } from 'pino';
import { ClickRecorder } from '../src/clicks/recorder.js';
import type { Visit } from '../src/clicks/visit-columns.js';
import { readStats } from '../src/features/stats/service.js';
import { nowTimestamp } from '../src/lib/time.js';
import { deleteUserByEmail } from '../src/features/account/service.js';
import { deleteLink } from '../src/features/links/repo.js';
import { deleteQr } from '../src/features/qr/repo.js';
import { startServer, type TestServer } from './helpers/server.js';
import { UA } from './helpers/user-agents.js';

let server: TestServer;
let ctx: AppContext;
let userId: number;
let seq = 0;

beforeAll(async () => {
  server = await startServer();
  ctx = server.ctx;
  userId = (await server.user()).id;
});
afterAll(() => server.close());

// Targets are inserted directly: the links and QR APIs are other features; here the recorder is under test.
async function newLink(): Promise<number> {
  const now = nowTimestamp();
  const row = await ctx.db
    .insertInto('links')
    .values({ user_id: userId, alias: `rec${++seq}`, long_url: 'https://example.com/', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function newQr(): Promise<number> {
  const row = await ctx.db
    .insertInto('qr_codes')
    .values({
      user_id: userId,
      slug: `qr${++seq}`,
      name: 'qr',
      type: 'link',
      data: '"https://example.com"',
      payload: 'x',
      created_at: nowTimestamp(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const visit = (ip: string, userAgent: string, referer = ''): Visit => ({ ip, userAgent, referer });

/** A mix of people (4 distinct visitors over 7 visits) and 3 crawler hits that must not count. */
function recordMix(kind: TargetKind, id: number): void {
  for (let i = 0; i < 3; i++) ctx.clicks.record(kind, id, userId, visit('8.8.8.8', UA.iphone, 'https://m.facebook.com/story'));
  for (let i = 0; i < 2; i++) ctx.clicks.record(kind, id, userId, visit('::ffff:81.2.69.142', UA.windowsChrome, 'https://t.co/abc'));
  ctx.clicks.record(kind, id, userId, visit('5.9.0.1', UA.macSafari));
  ctx.clicks.record(kind, id, userId, visit('10.0.0.1', UA.android, 'https://www.google.de/search?q=x'));
  ctx.clicks.record(kind, id, userId, visit('8.8.4.4', UA.googlebot));
  ctx.clicks.record(kind, id, userId, visit('8.8.4.4', UA.googlebot, 'https://google.com/'));
  ctx.clicks.record(kind, id, userId, visit('31.13.64.1', UA.facebookBot, 'https://facebook.com/'));
}

/** Everything stored about a target's clicks: its referrer rows, its summary and its visitor hashes. */
async function storedRows(kind: TargetKind, id: number) {
  const of = <T extends 'click_stats' | 'click_summaries' | 'click_uniques'>(table: T) =>
    ctx.db
      .selectFrom(table as 'click_stats')
      .selectAll()
      .where('target_kind', '=', kind)
      .where('target_id', '=', id)
      .execute();
  return { stats: await of('click_stats'), summaries: await of('click_summaries'), uniques: await of('click_uniques') };
}

const NOTHING = { stats: [], summaries: [], uniques: [] };

/** The kinds of a link's split-variant rows in every click table (src/clicks/derive.ts counts them as `variant:<n>`). */
async function variantRows(link: number): Promise<string[]> {
  const kinds = new Set<string>();
  for (const table of ['click_stats', 'click_summaries', 'click_uniques', 'click_hours', 'click_days'] as const) {
    const rows = await ctx.db
      .selectFrom(table as 'click_hours')
      .select('target_kind')
      .where(sql<boolean>`target_kind like 'variant:%'`)
      .where('target_id', '=', link)
      .execute();
    for (const row of rows) kinds.add(row.target_kind);
  }
  return [...kinds].sort();
}

/** A recorder that writes only when told (the server's writes every 50 ms), through the server's kind of writer. */
function heldRecorder(): ClickRecorder {
  const sqlitePath = /^sqlite:(.+)$/.exec(ctx.config.DATABASE_URL)?.[1];
  return new ClickRecorder({ db: ctx.db, sqlitePath, log: pino({ level: 'silent' }), secret: 's'.repeat(16), flushMs: 600_000, batchMax: 1000 });
}

describe('ClickRecorder', () => {
  it('counts people once per visit and once per visitor, with aggregates per dimension', async () => {
    const id = await newLink();
    recordMix('link', id);
    await ctx.clicks.flush();
    const stats = await readStats(ctx, 'link', id);
    expect(stats).toEqual({
      clicks: 7,
      uniqueClicks: 4,
      topCountries: { 'United States': 3, 'United Kingdom': 2, Germany: 1, Unknown: 1 },
      topReferrers: { 'm.facebook.com': 3, 't.co': 2, direct: 1, 'google.de': 1 },
      topBrowsers: { Chrome: 3, 'Mobile Safari': 3, Safari: 1 },
      topOs: { iOS: 3, Windows: 2, Android: 1, macOS: 1 },
      topDevices: { mobile: 4, desktop: 3 },
      topLanguages: { Unknown: 7 },
      socialCount: { facebook: 3, twitter: 2, google: 0 },
    });
    expect(Object.keys(stats.topCountries)).toEqual(['United States', 'United Kingdom', 'Germany', 'Unknown']);

    const stored = await storedRows('link', id);
    expect(stored.uniques).toHaveLength(4);
    for (const row of stored.uniques) expect((row as unknown as { visitor_hash: string }).visitor_hash).toMatch(/^[0-9a-f]{32}$/);
    // Aggregates and salted visitor hashes only: no address or user agent is kept.
    expect(JSON.stringify(stored)).not.toMatch(/8\.8\.8\.8|81\.2\.69|Mozilla/);

    recordMix('link', id); // the same visitors again: clicks grow, uniques do not
    await ctx.clicks.flush();
    const again = await readStats(ctx, 'link', id);
    expect(again).toMatchObject({ clicks: 14, uniqueClicks: 4, topOs: { iOS: 6, Windows: 4, Android: 2, macOS: 2 } });
  });

  it('keeps QR scans in the QR code counters', async () => {
    const qr = await newQr();
    recordMix('qr', qr);
    await ctx.clicks.flush();
    const [summary] = (await storedRows('qr', qr)).summaries as unknown as Array<{ clicks: number; uniques: number; labels: string }>;
    expect([Number(summary!.clicks), Number(summary!.uniques)]).toEqual([7, 4]);
    expect(JSON.parse(summary!.labels)).toMatchObject({ 'social:facebook': 3, 'os:iOS': 3, 'country:United States': 3 });
    expect(await readStats(ctx, 'qr', qr, ['facebook', 'twitter', 'instagram'])).toMatchObject({
      clicks: 7,
      uniqueClicks: 4,
      socialCount: { facebook: 3, twitter: 2, instagram: 0 },
    });
  });

  it("answers zeros and the spec's 0 maps before any click", async () => {
    const id = await newLink();
    expect(await readStats(ctx, 'link', id)).toEqual({
      clicks: 0,
      uniqueClicks: 0,
      topCountries: 0,
      topReferrers: 0,
      topBrowsers: 0,
      topOs: 0,
      topDevices: 0,
      topLanguages: 0,
      socialCount: { facebook: 0, twitter: 0, google: 0 },
    });
  });

  it('lists the top 10 labels by count', async () => {
    const id = await newLink();
    for (let site = 0; site < 12; site++) {
      for (let n = 0; n <= site; n++) ctx.clicks.record('link', id, userId, visit('8.8.8.8', UA.iphone, `https://site${site}.example/`));
    }
    await ctx.clicks.flush();
    const { topReferrers } = await readStats(ctx, 'link', id);
    expect(Object.entries(topReferrers)).toEqual(Array.from({ length: 10 }, (_, i) => [`site${11 - i}.example`, 12 - i]));
  });

  it('drops clicks queued before their target was deleted, and forgets its statistics', async () => {
    const [kept, gone, qr] = [await newLink(), await newLink(), await newQr()];
    recordMix('link', gone);
    await ctx.clicks.flush();
    expect((await storedRows('link', gone)).summaries).toHaveLength(1);
    const held = heldRecorder(); // so the batch is surely written after the deletes
    try {
      held.record('link', gone, userId, visit('8.8.8.8', UA.iphone)); // served from a cache just before the delete
      held.record('link', kept, userId, visit('8.8.8.8', UA.iphone));
      held.record('qr', qr, userId, visit('8.8.8.8', UA.iphone));
      await deleteLink(ctx.db, userId, gone);
      await deleteQr(ctx.db, userId, qr);
      await held.flush();
      expect(held.pending).toBe(0);
    } finally {
      await held.close();
    }
    expect((await readStats(ctx, 'link', kept)).clicks).toBe(1);
    expect(await storedRows('link', gone)).toEqual(NOTHING);
    expect(await storedRows('qr', qr)).toEqual(NOTHING);
  });

  it("drops a deleted link's queued split visits too, so its variants' rows are not recreated", async () => {
    const gone = await newLink();
    const held = heldRecorder();
    try {
      held.record('link', gone, userId, visit('8.8.8.8', UA.iphone), 'split:1');
      await held.flush();
      expect(await variantRows(gone)).toEqual(['variant:1']);
      // Served from a cache just before the delete, written after it.
      held.record('link', gone, userId, visit('8.8.8.8', UA.iphone), 'split:0');
      held.record('link', gone, userId, visit('5.9.0.1', UA.macSafari), 'rule:0/split:2');
      await deleteLink(ctx.db, userId, gone);
      await held.flush();
      expect(held.pending).toBe(0);
    } finally {
      await held.close();
    }
    expect(await storedRows('link', gone)).toEqual(NOTHING);
    expect(await variantRows(gone)).toEqual([]);
  });

  it('forgets the statistics of every link and QR code of a deleted account', async () => {
    const owner = await server.user();
    const now = nowTimestamp();
    const link = await ctx.db
      .insertInto('links')
      .values({ user_id: owner.id, alias: `acct${++seq}`, long_url: 'https://example.com/', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    recordMix('link', link.id);
    await ctx.clicks.flush();
    expect((await storedRows('link', link.id)).uniques).toHaveLength(4);
    await deleteUserByEmail(ctx, owner.email);
    expect(await storedRows('link', link.id)).toEqual(NOTHING);
  });

  it('keeps a failed batch and writes it exactly once when the database recovers', async () => {
    const id = await newLink();
    await ctx.db.schema.alterTable('click_uniques').renameTo('click_uniques_away').execute();
    try {
      recordMix('link', id);
      await ctx.clicks.flush();
      expect(ctx.clicks.pending).toBe(10); // bots are dropped only when a batch is written
      expect(await readStats(ctx, 'link', id)).toMatchObject({ clicks: 0, topCountries: 0 }); // rolled back as a whole
    } finally {
      await ctx.db.schema.alterTable('click_uniques_away').renameTo('click_uniques').execute();
    }
    await ctx.clicks.flush();
    expect(ctx.clicks.pending).toBe(0);
    expect(await readStats(ctx, 'link', id)).toMatchObject({ clicks: 7, uniqueClicks: 4, topCountries: { 'United States': 3 } });
    expect((await storedRows('link', id)).uniques).toHaveLength(4);
  });

  it('writes a large burst in bulk across many targets', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => newLink()));
    const agents = [UA.iphone, UA.android, UA.windowsChrome, UA.macSafari, UA.linuxFirefox];
    const total = 30_000;
    const visits = Array.from({ length: total }, (_, i) => visit(`81.2.${(i * 7) % 5}.${(i * 13) % 256}`, agents[i % 5]!, 'https://x.com/'));
    const visitors = new Map<number, Set<string>>(ids.map((id) => [id, new Set()]));
    visits.forEach((v, i) => visitors.get(ids[i % 20]!)!.add(`${v.ip} ${v.userAgent}`));
    visits.forEach((v, i) => ctx.clicks.record('link', ids[i % 20]!, userId, v));
    await ctx.clicks.flush();
    for (const id of ids) {
      expect(await readStats(ctx, 'link', id)).toMatchObject({ clicks: total / 20, uniqueClicks: visitors.get(id)!.size });
    }
    expect((await readStats(ctx, 'link', ids[0]!)).socialCount.twitter).toBe(total / 20);
  });

  it('writes a batch as soon as batchMax visits wait; the rest waits for the timer or close()', async () => {
    const id = await newLink();
    const recorder = new ClickRecorder({ db: ctx.db, log: pino({ level: 'silent' }), secret: 's'.repeat(16), flushMs: 600_000, batchMax: 100 });
    for (let i = 0; i < 250; i++) recorder.record('link', id, userId, visit(`5.9.0.${i % 50}`, UA.linuxFirefox));
    const clicks = async () => (await readStats(ctx, 'link', id)).clicks;
    const deadline = Date.now() + 10_000; // the writer thread starts on the first batch, slowly on a loaded machine
    while ((await clicks()) < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    expect(await clicks()).toBe(200); // two full batches; the last 50 are not written one by one
    expect(recorder.pending).toBe(50);
    for (let i = 0; i < 30; i++) recorder.record('link', id, userId, visit('5.9.0.1', UA.linuxFirefox));
    expect(recorder.pending).toBe(80);
    await recorder.close();
    expect(recorder.pending).toBe(0);
    expect(await readStats(ctx, 'link', id)).toMatchObject({ clicks: 280, uniqueClicks: 50, topCountries: { Germany: 280 } });
  });

  it('holds at most maxPending visits in memory', async () => {
    const id = await newLink();
    const recorder = new ClickRecorder({
      db: ctx.db,
      log: pino({ level: 'silent' }),
      secret: 's'.repeat(16),
      flushMs: 600_000,
      batchMax: 1000,
      maxPending: 5,
    });
    for (let i = 0; i < 8; i++) recorder.record('link', id, userId, visit('5.9.0.1', UA.linuxFirefox));
    expect(recorder.pending).toBe(5);
    await recorder.close();
    expect((await readStats(ctx, 'link', id)).clicks).toBe(5);
  });
});
