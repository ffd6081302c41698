import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { keyedOnly, type Builder } from './0001-initial.js';

/**
 * A click wrote a row of click_stats per label (country, referrer, browser, os, social) and per counter
 * (clicks, uniques): about seven upserts for a target seen once in its batch, which at 1M links is
 * nearly every click, each on a b-tree page of its own. Now a target's counters and the labels of the
 * bounded dimensions are one row of click_summaries (labels as a JSON object keyed `dimension:label`,
 * merged by the upsert itself), and click_stats keeps only referrers, a row per host: they come from
 * the visitor without bound, and a row each keeps a flood of made-up referers from growing one value
 * (docs/performance.md#summaries).
 */
const SUMMARIZED = sql`('country', 'browser', 'os', 'social')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedOnly(
    db,
    db.schema
      .createTable('click_summaries')
      .addColumn('target_kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('uniques', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('labels', 'text', (c) => c.notNull().defaultTo('{}'))
      .addPrimaryKeyConstraint('click_summaries_pk', ['target_kind', 'target_id']) as Builder,
  ).execute();
  const labels = isPostgres(db)
    ? sql`coalesce(jsonb_object_agg(dimension || ':' || label, count) filter (where dimension in ${SUMMARIZED}), '{}'::jsonb)::text`
    : sql`coalesce(json_group_object(dimension || ':' || label, count) filter (where dimension in ${SUMMARIZED}), '{}')`;
  await sql`insert into click_summaries (target_kind, target_id, clicks, uniques, labels)
    select target_kind, target_id,
      coalesce(sum(case when dimension = 'total' and label = 'clicks' then count end), 0),
      coalesce(sum(case when dimension = 'total' and label = 'uniques' then count end), 0),
      ${labels}
    from click_stats group by target_kind, target_id`.execute(db);
  await sql`delete from click_stats where dimension <> 'referrer'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
