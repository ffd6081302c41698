import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { TargetKind } from '../db/types.js';

/**
 * A visit pack as read back: one target's visits of one click batch (src/db/migrations/0007). A target's
 * packs are a chain from its summary row's `visit_pack` through each pack's `prev`, newest first.
 */
export interface PackRecord {
  id: number;
  prev: number | null;
  target_kind: TargetKind;
  target_id: number;
  at: number;
  n: number;
  labels: string;
  codes: Uint8Array;
  /** Visits in this pack and the newer ones of the walk. */
  seen: number;
}

// PostgreSQL answers bigint columns as strings.
const record = (row: Record<keyof PackRecord, unknown>): PackRecord => ({
  ...(row as PackRecord),
  id: Number(row.id),
  prev: row.prev === null ? null : Number(row.prev),
  target_id: Number(row.target_id),
  at: Number(row.at),
  n: Number(row.n),
  seen: Number(row.seen),
});

/** How many visits of the target the log holds. */
export async function countVisits(db: Db, kind: TargetKind, id: number): Promise<number> {
  const row = await db
    .selectFrom('click_summaries')
    .select('visit_count')
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .executeTakeFirst();
  return Number(row?.visit_count ?? 0);
}

/**
 * The target's packs newest first, from its newest (or from the pack `from`), walking until `visits`
 * visits or `packs` packs are read; only those whose visits come after the first `skip` are answered.
 * One recursive query: each step is a primary-key read, so nothing scans the log.
 */
export async function packChain(
  db: Db,
  kind: TargetKind,
  id: number,
  walk: { from?: number; visits: number; packs: number; skip?: number },
): Promise<PackRecord[]> {
  const start =
    walk.from === undefined ? sql`(select visit_pack from click_summaries where target_kind = ${kind} and target_id = ${id})` : sql`${walk.from}`;
  const { rows } = await sql<Record<keyof PackRecord, unknown>>`with recursive chain(id, prev, seen, depth) as (
      select p.id, p.prev, cast(p.n as bigint), 1 from visit_packs p where p.id = ${start} and p.target_kind = ${kind} and p.target_id = ${id}
      union all
      select p.id, p.prev, c.seen + p.n, c.depth + 1 from chain c join visit_packs p on p.id = c.prev
      where c.seen < cast(${walk.visits} as bigint) and c.depth < ${walk.packs} and p.target_kind = ${kind} and p.target_id = ${id})
    select p.id, p.prev, p.target_kind, p.target_id, p.at, p.n, p.labels, p.codes, c.seen
    from chain c join visit_packs p on p.id = c.id where c.seen > cast(${walk.skip ?? 0} as bigint) order by c.seen`.execute(db);
  return rows.map(record);
}

/** Where a walk of an account's packs resumes: below this pack in the order (at, id), newest first. */
export interface OwnerCursor {
  at: number;
  id: number;
}

/**
 * Up to `limit` of the account's packs that may hold visits served in seconds [fromAt, toAt), newest first by
 * (at, id), after `below`: one range of the (owner, at, id) index (src/db/migrations/0020), so a read costs
 * the account's own packs in the range, whatever the rest of the log holds. A pack spans a click batch
 * (about a second; a minute is allowed for).
 */
export async function ownerPacks(
  db: Db,
  owner: number,
  range: { fromAt: number; toAt: number; below?: OwnerCursor },
  limit: number,
): Promise<PackRecord[]> {
  const { fromAt, toAt, below } = range;
  const rows = await db
    .selectFrom('visit_packs')
    .select(['id', 'prev', 'target_kind', 'target_id', 'at', 'n', 'labels', 'codes', sql<number>`0`.as('seen')])
    .where('owner', '=', owner)
    .where('at', '>=', fromAt - 60)
    .where('at', '<', toAt)
    .$if(below !== undefined, (q) => q.where((eb) => eb.or([eb('at', '<', below!.at), eb.and([eb('at', '=', below!.at), eb('id', '<', below!.id)])])))
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(record);
}
