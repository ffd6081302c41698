import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { DestinationKind, TargetKind } from '../../db/types.js';

/** The SQL of health_checks; only this feature names the table. */

export interface HealthRow {
  target_id: number;
  status: string;
  code: number | null;
  checked_at: string | null;
  since: string | null;
}

export async function healthRows(db: Db, kind: TargetKind, ids: number[]): Promise<HealthRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('health_checks')
    .select(['target_id', 'status', 'code', 'checked_at', 'since'])
    .where('target_kind', '=', kind)
    .where('target_id', 'in', ids)
    .execute();
}

/** The newest target id the checker knows of: later ones are new. */
export async function newestWatched(db: Db, kind: TargetKind): Promise<number> {
  const row = await db
    .selectFrom('health_checks')
    .select((eb) => eb.fn.max('target_id').as('id'))
    .where('target_kind', '=', kind)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Starts watching targets; a row another node inserted first stays as it is. */
export async function watch(db: Db, kind: TargetKind, rows: Array<{ id: number; due: string }>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('health_checks')
    .values(rows.map((r) => ({ target_kind: kind, target_id: r.id, due_at: r.due })))
    .onConflict((oc) => oc.columns(['target_kind', 'target_id']).doNothing())
    .execute();
}

export interface Claimed {
  target_kind: TargetKind;
  target_id: number;
  status: string;
  resume_at: number;
}

/**
 * Leases up to `limit` due targets to this node until `leaseUntil`, in one statement: a row another node
 * leased meanwhile fails the repeated `lease_until` test (PostgreSQL re-reads a row it waited for), so
 * each due target goes to one node.
 */
export async function claimDue(db: Db, now: string, leaseUntil: string, limit: number): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`update health_checks set lease_until = ${leaseUntil}
    where lease_until <= ${now} and (target_kind, target_id) in (
      select target_kind, target_id from health_checks where due_at <= ${now} and lease_until <= ${now} order by due_at limit ${limit})
    returning target_kind, target_id, status, resume_at`.execute(db);
  return rows.map((r) => ({ ...r, target_id: Number(r.target_id), resume_at: Number(r.resume_at) }));
}

/** Where the target's next check starts (a check its budget cut short goes on there). */
export async function resumeAt(db: Db, kind: TargetKind, id: number): Promise<number> {
  const row = await db.selectFrom('health_checks').select('resume_at').where('target_kind', '=', kind).where('target_id', '=', id).executeTakeFirst();
  return Number(row?.resume_at ?? 0);
}

/** Hands leased targets back; with `due`, they are due then (behind the others due now) instead of as they were. */
export async function release(db: Db, targets: Array<Pick<Claimed, 'target_kind' | 'target_id'>>, due?: string): Promise<void> {
  for (const kind of new Set(targets.map((t) => t.target_kind))) {
    const ids = targets.filter((t) => t.target_kind === kind).map((t) => t.target_id);
    await db
      .updateTable('health_checks')
      .set({ lease_until: '', ...(due === undefined ? {} : { due_at: due }) })
      .where('target_kind', '=', kind)
      .where('target_id', 'in', ids)
      .execute();
  }
}

export interface Checked {
  status: string;
  code: number | null;
  checkedAt: string;
  due: string;
  /** Where the next check starts: 0 after a whole check, else the first destination this one did not reach. */
  resumeAt: number;
}

/**
 * Records a check and releases the lease; `since` moves only when the status changed. With several destinations,
 * also which were found broken (`broken` of `urls`). Answers the status before and whether the broken ones changed;
 * `also` joins the transaction with it (the webhooks' outbox).
 */
export async function record(
  db: Db,
  kind: TargetKind,
  id: number,
  checked: Checked,
  found: Found,
  also?: (trx: Db, before: string | undefined) => Promise<void>,
): Promise<{ before?: string; moved: boolean }> {
  return db.transaction().execute(async (trx) => {
    const moved = found.urls.length > 1 && (await recordBroken(trx, kind, id, found.broken));
    const before = await recordTarget(trx, kind, id, checked);
    await also?.(trx, before);
    return { before, moved };
  });
}

async function recordTarget(trx: Db, kind: TargetKind, id: number, checked: Checked): Promise<string | undefined> {
  const before = await trx
    .selectFrom('health_checks')
    .select('status')
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .executeTakeFirst();
  const values = {
    status: checked.status,
    code: checked.code,
    checked_at: checked.checkedAt,
    due_at: checked.due,
    lease_until: '',
    resume_at: checked.resumeAt,
  };
  const since = before?.status === checked.status ? {} : { since: checked.checkedAt };
  await trx
    .insertInto('health_checks')
    .values({ target_kind: kind, target_id: id, ...values, since: checked.checkedAt })
    .onConflict((oc) => oc.columns(['target_kind', 'target_id']).doUpdateSet({ ...values, ...since }))
    .execute();
  return before?.status;
}

/** The destinations a check visited and those it found broken. */
export interface Found {
  urls: string[];
  broken: string[];
}

/** Destination rows are never due: the target's own row schedules its checks. */
const PARKED = '9999-12-31 23:59:59';

const destinationsKind = (kind: TargetKind, id: number): DestinationKind => `${kind}>${id}`;

/** A destination's row id: 31 bits of its address's SHA-256 (PostgreSQL's integer), distinct among one target's few. */
export const destinationNumber = (url: string) => createHash('sha256').update(url).digest().readUInt32BE(0) >>> 1;

/** The row ids of the target's destinations last found broken. */
export async function brokenNumbers(db: Db, kind: TargetKind, id: number): Promise<Set<number>> {
  const rows = await db.selectFrom('health_checks').select('target_id').where('target_kind', '=', destinationsKind(kind, id)).execute();
  return new Set(rows.map((r) => Number(r.target_id)));
}

/** Keeps a row per destination found broken, none for the others; answers whether they changed. */
async function recordBroken(trx: Db, kind: TargetKind, id: number, broken: string[]): Promise<boolean> {
  const now = new Set(broken.map(destinationNumber));
  const before = await brokenNumbers(trx, kind, id);
  if (now.size === before.size && [...now].every((n) => before.has(n))) return false;
  const target_kind = destinationsKind(kind, id);
  await trx.deleteFrom('health_checks').where('target_kind', '=', target_kind).execute();
  if (now.size > 0) {
    await trx
      .insertInto('health_checks')
      .values([...now].map((target_id) => ({ target_kind, target_id, status: 'broken', due_at: PARKED })))
      .onConflict((oc) => oc.columns(['target_kind', 'target_id']).doNothing()) // a check asked for meanwhile wrote the same
      .execute();
  }
  return true;
}

/** Reschedules a target without checking it (its owner turned checks off); its health becomes unknown. */
export async function park(db: Db, kind: TargetKind, id: number, due: string): Promise<void> {
  await db
    .updateTable('health_checks')
    .set({ status: 'unknown', code: null, checked_at: null, since: null, due_at: due, lease_until: '' })
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .execute();
}

/** Forgets what the last check found (the destination changed) and makes the target due at `due`. */
export async function reset(db: Db, kind: TargetKind, id: number, due: string): Promise<void> {
  await db.deleteFrom('health_checks').where('target_kind', '=', destinationsKind(kind, id)).execute();
  await db
    .updateTable('health_checks')
    .set({ status: 'unknown', code: null, checked_at: null, since: null, due_at: due, resume_at: 0 })
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .execute();
}

export async function forget(db: Db, kind: TargetKind, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('health_checks').where('target_kind', '=', kind).where('target_id', 'in', ids).execute();
  const destinations = ids.map((id) => destinationsKind(kind, id));
  for (let i = 0; i < destinations.length; i += 500) {
    await db
      .deleteFrom('health_checks')
      .where('target_kind', 'in', destinations.slice(i, i + 500))
      .execute();
  }
}

/** Ids of the kind's targets last found with this status, as a subquery for the owner's lists. */
export function idsWithStatus(kind: TargetKind, status: string): RawBuilder<number> {
  return sql<number>`(select target_id from health_checks where target_kind = ${kind} and status = ${status})`;
}

/** True while the target at `idColumn` was last found broken: one indexed probe, for the owner's redirect row. */
export function brokenNow(kind: TargetKind, idColumn: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from health_checks where target_kind = ${sql.lit(kind)} and target_id = ${sql.ref(idColumn)} and status = 'broken')`;
}
