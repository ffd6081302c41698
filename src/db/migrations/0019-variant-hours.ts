import { sql, type Kysely } from 'kysely';

/**
 * A split variant's clicks go straight to click_hours (src/clicks/batch-rows.ts#isVariant): its summary row
 * held only counters and an open hour, and upserting three of them a batch for every routed link was most of
 * what routing cost the click writer (docs/performance.md#variant-hours). The open hours move to click_hours;
 * the totals are then the sum of a variant's hours and days, as they were the summary's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into click_hours (target_kind, target_id, hour, clicks, uniques)
    select target_kind, target_id, hour, hour_clicks, hour_uniques from click_summaries
    where target_kind like 'variant:%' and hour_clicks > 0
    on conflict (target_kind, target_id, hour) do update
    set clicks = click_hours.clicks + excluded.clicks, uniques = click_hours.uniques + excluded.uniques`.execute(db);
  await sql`delete from click_summaries where target_kind like 'variant:%'`.execute(db);
  // A variant's new visitors are now its link's new ones served it (src/clicks/batch-rows.ts#variantFresh).
  await sql`delete from click_uniques where target_kind like 'variant:%'`.execute(db);
}
