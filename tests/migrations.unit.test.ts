import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { isPostgres } from '../src/db/dialect.js';
import * as initial from '../src/db/migrations/0001-initial.js';
import { readStats } from '../src/features/stats/service.js';
import { listLinks } from '../src/features/links/repo.js';
import { findQrSummary } from '../src/features/qr/repo.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';

// An installation of the first release, with counts, upgraded by starting the current code on it.
let store: ProcessDb;
beforeAll(async () => {
  store = await processDb();
});
afterAll(() => store.close());

async function firstRelease(): Promise<{ userId: number; linkId: number; qrId: number }> {
  const { db } = connect(store.env.DATABASE_URL!);
  try {
    // Kysely looks for its bookkeeping tables in every schema: pin them to this test's own, or another
    // test server's schema (the suite runs files in parallel) passes for ours.
    const migrationTableSchema = isPostgres(db)
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
      : undefined;
    const migrator = new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => ({ '0001-initial': initial }) } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
    const now = '2025-01-01 00:00:00';
    const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows[0]!;
    const user = await one<{ id: number }>(sql`insert into users (email, username, password_hash, created_at)
      values ('old@example.com', 'old', 'x', ${now}) returning id`);
    const link = await one<{ id: number }>(sql`insert into links (user_id, alias, long_url, clicks, unique_clicks, created_at, updated_at)
      values (${user.id}, 'old', 'https://example.com/', 41, 17, ${now}, ${now}) returning id`);
    await sql`insert into links (user_id, alias, long_url, created_at, updated_at) values (${user.id}, 'never', 'https://example.com/', ${now}, ${now})`.execute(
      db,
    );
    const qr = await one<{ id: number }>(sql`insert into qr_codes (user_id, slug, name, type, data, payload, scans, unique_scans, created_at)
      values (${user.id}, 'oldqr', 'qr', 'text', '"hi"', 'hi', 9, 2, ${now}) returning id`);
    await sql`insert into click_stats (target_kind, target_id, dimension, label, count)
      values ('link', ${link.id}, 'country', 'Germany', 41), ('link', ${link.id}, 'referrer', 't.co', 30),
        ('link', ${link.id}, 'referrer', 'direct', 11), ('link', ${link.id}, 'social', 'twitter', 30),
        ('link', 999999, 'country', 'Germany', 5)`.execute(db); // the last a deleted link's
    return { userId: user.id, linkId: link.id, qrId: qr.id };
  } finally {
    await db.destroy();
  }
}

it('keeps every count when an installation of the first schema is upgraded', async () => {
  const { userId, linkId, qrId } = await firstRelease();
  await store.withCtx(async (ctx) => {
    expect(await readStats(ctx, 'link', linkId)).toMatchObject({
      clicks: 41,
      uniqueClicks: 17,
      topCountries: { Germany: 41 },
      topReferrers: { 't.co': 30, direct: 11 },
      topBrowsers: 0,
      socialCount: { twitter: 30, facebook: 0 },
    });
    expect(await readStats(ctx, 'qr', qrId)).toMatchObject({ clicks: 9, uniqueClicks: 2 });
    expect((await findQrSummary(ctx.db, userId, qrId))?.scans).toBe(9);
    const listed = await listLinks(ctx.db, userId, { limit: 10, offset: 0, page: 1 }, 'click');
    expect(listed.map((l) => [l.alias, l.clicks])).toEqual([
      ['old', 41],
      ['never', 0],
    ]);
    const orphans = await ctx.db.selectFrom('click_stats').select('target_id').where('target_id', '=', 999999).execute();
    expect(orphans).toEqual([]); // statistics left behind by deletes before this release are gone
    const summaries = await ctx.db.selectFrom('click_summaries').select('target_id').where('target_id', '=', 999999).execute();
    expect(summaries).toEqual([]);
    const left = await ctx.db.selectFrom('click_stats').select('dimension').distinct().where('target_id', '=', linkId).execute();
    expect(left).toEqual([{ dimension: 'referrer' }]); // the other labels and the counters live in the summary
  });
});
