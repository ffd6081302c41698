import { sql, type Kysely } from 'kysely';

/**
 * Clicks are kept as running aggregates only, in as few b-trees as possible. A click used to write a
 * raw row and its index, the counters of the wide links / qr_codes row (and links_user_clicks), and
 * click_stats with a second index ordered by count: some twenty b-tree changes, each on a page of its
 * own once traffic spreads over many links, and each such page copied whole into the WAL. Now the
 * counters are rows of click_stats beside the target's labels ('total' / 'clicks' and 'uniques'), so
 * one click changes one neighbourhood of click_stats and, for a new visitor, one row of click_uniques.
 * The raw log was never read: statistics come from the aggregates.
 *
 * deleted_targets remembers deleted links and QR codes for a day, so the click writer drops visits
 * queued before a delete without reading the (large) links table for every target it writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const counters = [
    ['link', 'links', 'clicks', 'clicks'],
    ['link', 'links', 'unique_clicks', 'uniques'],
    ['qr', 'qr_codes', 'scans', 'clicks'],
    ['qr', 'qr_codes', 'unique_scans', 'uniques'],
  ] as const;
  for (const [kind, table, column, label] of counters) {
    await sql`insert into click_stats (target_kind, target_id, dimension, label, count)
      select ${kind}, id, 'total', ${label}, ${sql.ref(column)} from ${sql.table(table)} where ${sql.ref(column)} > 0`.execute(db);
  }
  await db.schema.dropIndex('links_user_clicks').execute();
  await db.schema.dropIndex('click_stats_top').execute();
  await db.schema.dropTable('clicks').execute();
  for (const [, table, column] of counters) await db.schema.alterTable(table).dropColumn(column).execute();

  await db.schema
    .createTable('deleted_targets')
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('deleted_targets_pk', ['target_kind', 'target_id'])
    .execute();
  // Statistics of targets deleted before this release.
  for (const [kind, table] of [
    ['link', 'links'],
    ['qr', 'qr_codes'],
  ] as const) {
    for (const stats of ['click_stats', 'click_uniques']) {
      await sql`delete from ${sql.table(stats)} where target_kind = ${kind}
        and not exists (select 1 from ${sql.table(table)} t where t.id = target_id)`.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
