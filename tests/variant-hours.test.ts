import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { readVariantTotals } from '../src/clicks/stats-repo.js';
import { olderInstall } from './helpers/older-install.js';
import { processDb } from './helpers/process-db.js';

// Migration 0019: a split variant's summary row (counters and open hour) becomes hours, and its totals read the same.
it('keeps a variant’s totals when its summary row moves to click_hours', async () => {
  const older = await processDb();
  const hour = 493_000;
  try {
    await olderInstall(older.env.DATABASE_URL!, '0019', async (db) => {
      await sql`insert into click_summaries (target_kind, target_id, clicks, uniques, labels, hour, hour_clicks, hour_uniques)
        values ('variant:1', 42, 7, 3, '{}', ${hour}, 2, 1), ('variant:2', 42, 4, 4, '{}', ${hour}, 0, 0),
          ('link', 42, 11, 7, '{}', ${hour}, 2, 1)`.execute(db);
      await sql`insert into click_hours (target_kind, target_id, hour, clicks, uniques)
        values ('variant:1', 42, ${hour - 1}, 5, 2), ('variant:2', 42, ${hour - 2}, 4, 4)`.execute(db);
    });
    await older.withCtx(async ({ db }) => {
      const totals = await readVariantTotals(db, 42, ['variant:0', 'variant:1', 'variant:2']);
      expect(Object.fromEntries(totals)).toEqual({ 'variant:1': { clicks: 7, uniques: 3 }, 'variant:2': { clicks: 4, uniques: 4 } });
      const summaries = await db.selectFrom('click_summaries').select(['target_kind', 'clicks']).where('target_id', '=', 42).execute();
      expect(summaries.map((row) => [row.target_kind, Number(row.clicks)])).toEqual([['link', 11]]);
      const hours = await db
        .selectFrom('click_hours')
        .select(['target_kind', 'hour', 'clicks'])
        .where('target_kind', '=', 'variant:1')
        .orderBy('hour')
        .execute();
      expect(hours.map((row) => [row.hour, Number(row.clicks)])).toEqual([
        [hour - 1, 5],
        [hour, 2],
      ]);
    });
  } finally {
    await older.close();
  }
});
