import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { TargetKind } from '../../db/types.js';

/** A logged visit as read back; `at` in seconds since 1970. */
export interface VisitRecord {
  id: number;
  target_kind: TargetKind;
  target_id: number;
  at: number;
  country: string;
  referrer: string;
  browser: string;
  os: string;
  device: string;
  rule: string;
}

const COLUMNS = ['id', 'target_kind', 'target_id', 'at', 'country', 'referrer', 'browser', 'os', 'device', 'rule'] as const;

// PostgreSQL answers bigint columns as strings.
const record = (row: Record<(typeof COLUMNS)[number], unknown>): VisitRecord =>
  ({ ...(row as VisitRecord), id: Number(row.id), target_id: Number(row.target_id), at: Number(row.at) });

/** How many visits of the target the log holds. */
export async function countVisits(db: Db, kind: TargetKind, id: number): Promise<number> {
  const row = await db.selectFrom('visits').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('target_kind', '=', kind).where('target_id', '=', id).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page of the target's visits, newest first (offset paging, as the spec's lists). */
export async function visitPage(db: Db, kind: TargetKind, id: number, limit: number, offset: number): Promise<VisitRecord[]> {
  const rows = await db.selectFrom('visits').select(COLUMNS).where('target_kind', '=', kind).where('target_id', '=', id)
    .orderBy('id', 'desc').limit(limit).offset(offset).execute();
  return rows.map(record);
}

/** The target's visits older than the visit `before` (an id), newest first: one keyset step of an export. */
export async function visitsBefore(db: Db, kind: TargetKind, id: number, before: number, limit: number): Promise<VisitRecord[]> {
  const rows = await db.selectFrom('visits').select(COLUMNS).where('target_kind', '=', kind).where('target_id', '=', id)
    .where('id', '<', before).orderBy('id', 'desc').limit(limit).execute();
  return rows.map(record);
}

/** The lowest and highest visit ids in the log (0 when empty): the span an account export walks. */
export async function visitIdSpan(db: Db): Promise<{ first: number; last: number }> {
  const row = await db.selectFrom('visits').select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')]).executeTakeFirst();
  return { first: Number(row?.first ?? 0), last: Number(row?.last ?? 0) };
}

/**
 * The account's visits with ids in [from, to), newest first, served in seconds [fromAt, toAt): one window
 * of the log's primary key, so each step reads at most `to - from` rows whatever the account's share.
 */
export async function accountVisitsIn(db: Db, userId: number, from: number, to: number, fromAt: number, toAt: number): Promise<VisitRecord[]> {
  const rows = await db.selectFrom('visits').select(COLUMNS)
    .where('id', '>=', from).where('id', '<', to).where('at', '>=', fromAt).where('at', '<', toAt)
    .where((eb) => eb.or([
      eb.and([eb('target_kind', '=', 'link'), eb('target_id', 'in', sql<number>`(select id from links where user_id = ${userId})`)]),
      eb.and([eb('target_kind', '=', 'qr'), eb('target_id', 'in', sql<number>`(select id from qr_codes where user_id = ${userId})`)]),
    ]))
    .orderBy('id', 'desc').execute();
  return rows.map(record);
}
