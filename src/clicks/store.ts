import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/connect.js';
import { isPostgres } from '../db/dialect.js';
import type {
  ClickHoursTable,
  Database,
  ClickStatsTable,
  ClickSummariesTable,
  ClickUniquesTable,
  CountedKind,
  TargetKind,
  VisitPacksTable,
} from '../db/types.js';
import type { Packer } from './visit-log.js';

// SQLite refuses statements with more than 32766 bound values (PostgreSQL 65535). Chunks stay far
// smaller: better-sqlite3 runs synchronously, and between chunks the event loop serves requests.
export const MAX_VARIABLES = 5_000;

async function eachChunk<T extends object>(rows: T[], write: (chunk: T[]) => Promise<void>): Promise<void> {
  if (rows.length === 0) return;
  const size = Math.max(1, Math.floor(MAX_VARIABLES / Object.keys(rows[0]!).length));
  for (let i = 0; i < rows.length; i += size) {
    if (i > 0) await nextTurn();
    await write(rows.slice(i, i + size));
  }
}

/** PostgreSQL types of the click tables' columns, for rows sent as one array a column (insertRows). */
const PG_TYPES: Record<string, string> = {
  target_kind: 'text',
  target_id: 'int4',
  dimension: 'text',
  label: 'text',
  count: 'int8',
  visitor_hash: 'text',
  clicks: 'int8',
  uniques: 'int8',
  labels: 'text',
  hour: 'int4',
  hour_clicks: 'int8',
  hour_uniques: 'int8',
  visit_pack: 'int8',
  visit_count: 'int8',
  owner: 'int4',
  at: 'int8',
  n: 'int4',
  codes: 'bytea',
};

type ClickTable = 'click_stats' | 'click_summaries' | 'click_uniques' | 'click_hours' | 'visit_packs';

/**
 * An insert of the rows. On PostgreSQL each column is one array parameter, unnested: a statement of the same
 * few parameters whatever the rows, where Kysely builds and compiles a multi-row VALUES list at 10–20 µs a
 * row (docs/performance.md#pg-click-writer). Rows come out of unnest in array order (lock order stays).
 */
function insertRows<T extends ClickTable>(db: Db, table: T, rows: Insertable<Database[T]>[]) {
  const into = db.insertInto(table);
  if (!isPostgres(db)) return into.values(rows);
  const columns = Object.keys(rows[0]!);
  const arrays = columns.map((c) => {
    const type = PG_TYPES[c];
    if (!type) throw new Error(`no PostgreSQL type for column ${c}`);
    return sql`${sql.val(rows.map((row) => (row as Record<string, unknown>)[c] ?? null))}::${sql.raw(type)}[]`;
  });
  return into.columns(columns as never).expression(sql`select * from unnest(${sql.join(arrays)})`);
}

/** Adds the batch's referrer counts; rows must be distinct per key (PostgreSQL insists). */
export async function upsertStats(db: Db, rows: ClickStatsTable[]): Promise<void> {
  await eachChunk(rows, async (chunk) => {
    await insertRows(db, 'click_stats', chunk)
      .onConflict((oc) =>
        oc
          .columns(['target_kind', 'target_id', 'dimension', 'label'])
          .doUpdateSet((eb) => ({ count: eb('click_stats.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  });
}

/**
 * `labels` of a summary plus those of the incoming row, added key by key, in the database itself: an
 * upsert needs no read first. SQLite's form is also the click writer thread's (batch-writers.ts).
 */
export const MERGE_LABELS_SQLITE = `(select json_group_object(key, total) from (select key, sum(value) as total from
  (select key, value from json_each(click_summaries.labels) union all select key, value from json_each(excluded.labels)) group by key))`;
const MERGE_LABELS_POSTGRES = `(select coalesce(jsonb_object_agg(key, total), '{}'::jsonb)::text from (select key, sum(value::bigint) as total from
  (select * from jsonb_each_text(click_summaries.labels::jsonb) union all select * from jsonb_each_text(excluded.labels::jsonb)) e group by key) s)`;

/**
 * The open hour of a summary after an upsert, the same SQL on both dialects: the batch's hour is stored and
 * its counts added when it is the same hour; triggers close a replaced hour or undo an earlier one
 * (src/db/migrations/0006).
 */
const same = 'excluded.hour = click_summaries.hour';
const OPEN_HOUR_SET = {
  hour: 'excluded.hour',
  hour_clicks: `case when ${same} then click_summaries.hour_clicks + excluded.hour_clicks else excluded.hour_clicks end`,
  hour_uniques: `case when ${same} then click_summaries.hour_uniques + excluded.hour_uniques else excluded.hour_uniques end`,
};
export const OPEN_HOUR_SET_SQL = Object.entries(OPEN_HOUR_SET)
  .map(([column, value]) => `${column} = ${value}`)
  .join(', ');

/** A batch's pack becomes the target's newest (a trigger chains the replaced one, src/db/migrations/0007) and its visits count. */
const VISIT_PACK_SET = {
  visit_pack: 'coalesce(excluded.visit_pack, click_summaries.visit_pack)',
  visit_count: 'click_summaries.visit_count + excluded.visit_count',
};
export const VISIT_PACK_SET_SQL = Object.entries(VISIT_PACK_SET)
  .map(([column, value]) => `${column} = ${value}`)
  .join(', ');

/** Adds the batch's counters, labels and open hours to the targets' summaries, one row per target. */
export async function upsertSummaries(db: Db, rows: Insertable<ClickSummariesTable>[]): Promise<void> {
  const merge = sql.raw<string>(isPostgres(db) ? MERGE_LABELS_POSTGRES : MERGE_LABELS_SQLITE);
  await eachChunk(rows, async (chunk) => {
    await insertRows(db, 'click_summaries', chunk)
      .onConflict((oc) =>
        oc.columns(['target_kind', 'target_id']).doUpdateSet((eb) => ({
          clicks: eb('click_summaries.clicks', '+', eb.ref('excluded.clicks')),
          uniques: eb('click_summaries.uniques', '+', eb.ref('excluded.uniques')),
          labels: merge,
          hour: sql.raw<number>(OPEN_HOUR_SET.hour),
          hour_clicks: sql.raw<number>(OPEN_HOUR_SET.hour_clicks),
          hour_uniques: sql.raw<number>(OPEN_HOUR_SET.hour_uniques),
          visit_pack: sql.raw<number>(VISIT_PACK_SET.visit_pack),
          visit_count: sql.raw<number>(VISIT_PACK_SET.visit_count),
        })),
      )
      .execute();
  });
}

type TargetKey = { target_kind: CountedKind; target_id: number };

/** `(target_kind, target_id)` is one of the keys (a row-value IN list both dialects take). */
export const keyIn = (keys: TargetKey[]) =>
  sql<boolean>`(target_kind, target_id) in (values ${sql.join(keys.map((k) => sql`(${k.target_kind}, cast(${k.target_id} as integer))`))})`;

/** Records visitor hashes; returns those that were new, as `kind:id:hash`. */
export async function insertUniques(db: Db, rows: ClickUniquesTable[]): Promise<Set<string>> {
  const fresh = new Set<string>();
  await eachChunk(rows, async (chunk) => {
    // Both dialects return only the rows actually inserted when the conflict is ignored.
    const inserted = await insertRows(db, 'click_uniques', chunk)
      .onConflict((oc) => oc.doNothing())
      .returning(['target_kind', 'target_id', 'visitor_hash'])
      .execute();
    for (const row of inserted) fresh.add(`${row.target_kind}:${row.target_id}:${row.visitor_hash}`);
  });
  return fresh;
}

/** Adds the batch's clicks and new visitors to the targets' hourly buckets. */
export async function upsertHours(db: Db, rows: ClickHoursTable[]): Promise<void> {
  await eachChunk(rows, async (chunk) => {
    await insertRows(db, 'click_hours', chunk)
      .onConflict((oc) =>
        oc.columns(['target_kind', 'target_id', 'hour']).doUpdateSet((eb) => ({
          clicks: eb('click_hours.clicks', '+', eb.ref('excluded.clicks')),
          uniques: eb('click_hours.uniques', '+', eb.ref('excluded.uniques')),
        })),
      )
      .execute();
  });
}

/** A target's pack written in this batch: its id and its visits, for the target's summary row. */
export interface WrittenPack {
  pack: number;
  n: number;
}

/** Appends the batch's visit packs of the targets (in their order), in multi-row inserts; answers each target's by targetKey. */
export async function insertPacks(
  db: Db,
  targets: Array<{ kind: CountedKind; id: number; owner: number; logged: number[] }>,
  pack: Packer,
): Promise<Map<string, WrittenPack>> {
  const rows: Insertable<VisitPacksTable>[] = [];
  for (const { kind, id, owner, logged } of targets) {
    const p = pack(logged);
    // Only links and QR codes log visits (a split variant's `logged` is empty).
    if (p) rows.push({ target_kind: kind as TargetKind, target_id: id, owner, at: p.at, n: p.n, labels: p.labels, codes: p.codes });
  }
  const written = new Map<string, WrittenPack>();
  await eachChunk(rows, async (chunk) => {
    const ids = await insertRows(db, 'visit_packs', chunk).returning(['id', 'target_kind', 'target_id', 'n']).execute();
    for (const row of ids) written.set(`${row.target_kind}:${row.target_id}`, { pack: Number(row.id), n: Number(row.n) });
  });
  return written;
}

/** A target's click count (0 when none) as a correlated subquery, for lists that show or sort by it. */
export function clickCount(kind: TargetKind, idColumn: 'links.id' | 'qr_codes.id') {
  return sql<number>`coalesce((select clicks from click_summaries where target_kind = ${kind} and target_id = ${sql.ref(idColumn)}), 0)`;
}

/** A target's unique visitors (0 when none) as a correlated subquery, like clickCount. */
export function uniqueCount(kind: TargetKind, idColumn: 'links.id' | 'qr_codes.id') {
  return sql<number>`coalesce((select uniques from click_summaries where target_kind = ${kind} and target_id = ${sql.ref(idColumn)}), 0)`;
}
