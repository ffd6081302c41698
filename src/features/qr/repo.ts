import type { Db } from '../../db/connect.js';
import type { QrCodesTable, QrRow } from '../../db/types.js';
import { sql, type Expression, type Insertable, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Page } from '../../lib/pagination.js';
import { forgetTargets } from '../../clicks/forget.js';
import { clickCount } from '../../clicks/store.js';
import { forgetHealth } from '../health/access.js';
import { forgetItem } from '../channels/access.js';

/** List and detail columns: never the logo, which may be a data URI of hundreds of kilobytes. */
const SUMMARY = ['id', 'slug', 'name', 'created_at'] as const;
const scans = () => clickCount('qr', 'qr_codes.id').as('scans');

export type QrSummary = Pick<QrRow, (typeof SUMMARY)[number]> & { scans: number };

export async function listQrs(db: Db, userId: number, page: Page): Promise<{ total: number; rows: QrSummary[] }> {
  const count = await db
    .selectFrom('qr_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('qr_codes')
    .select(SUMMARY)
    .select(scans())
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(count.n), rows };
}

export function findQrSummary(db: Db, userId: number, id: number): Promise<QrSummary | undefined> {
  return db.selectFrom('qr_codes').select(SUMMARY).select(scans()).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

const CONTENT = ['type', 'data', 'background', 'foreground', 'logo'] as const;
export type QrWithContent = QrSummary & Pick<QrRow, (typeof CONTENT)[number]>;

/** One code with its content, for its detail. */
export function findQrDetail(db: Db, userId: number, id: number): Promise<QrWithContent | undefined> {
  return db
    .selectFrom('qr_codes')
    .select([...SUMMARY, ...CONTENT])
    .select(scans())
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** What an update needs to merge the new values with the stored ones. */
export function findQrForUpdate(db: Db, userId: number, id: number) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'slug', 'type', 'data', 'foreground', 'background'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Everything the public image and scan addresses need. */
export function findQrBySlug(db: Db, slug: string) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'type', 'data', 'payload', 'foreground', 'background', 'logo'])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export function findScanTarget(db: Db, slug: string) {
  return db.selectFrom('qr_codes').select(['id', 'user_id', 'type', 'data']).where('slug', '=', slug).executeTakeFirst();
}

export async function insertQr(db: Db, row: Insertable<QrCodesTable>): Promise<number> {
  const inserted = await db.insertInto('qr_codes').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateQr(db: Db, userId: number, id: number, changes: Updateable<QrCodesTable>): Promise<void> {
  await db.updateTable('qr_codes').set(changes).where('id', '=', id).where('user_id', '=', userId).execute();
}

/**
 * Deletes a code with its channel entries and statistics; returns its slug, or undefined when the caller has
 * no such code. `also` runs in the same transaction once the code is gone.
 */
export function deleteQr(db: Db, userId: number, id: number, also?: (trx: Db) => Promise<void>): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('qr_codes').where('id', '=', id).where('user_id', '=', userId).returning('slug').executeTakeFirst();
    if (!deleted) return undefined;
    await forgetItem(trx, 'qr', id);
    await forgetTargets(trx, 'qr', [id], userId);
    await forgetHealth(trx, 'qr', [id]);
    await also?.(trx);
    return deleted.slug;
  });
}

export async function ownsQr(db: Db, userId: number, id: number): Promise<boolean> {
  return (await db.selectFrom('qr_codes').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

/** The account's QR code ids as a subquery (within `among`, a subquery of ids, when given). */
export function qrIdsOf(userId: number, among?: RawBuilder<number>): RawBuilder<number> {
  return among
    ? sql<number>`(select id from qr_codes where user_id = ${userId} and id in ${among})`
    : sql<number>`(select id from qr_codes where user_id = ${userId})`;
}

/** True while the QR code at `idColumn` exists and is the account's, for another owner's query. */
export function qrAlive(idColumn: string, userId: number): Expression<SqlBool> {
  return sql<SqlBool>`exists (select qr_codes.id from qr_codes where qr_codes.id = ${sql.ref(idColumn)} and qr_codes.user_id = ${userId})`;
}

/** Names of QR codes (of the account, when given), for lists of other features (channels, visit logs). */
export function qrNames(db: Db, ids: number[], userId?: number) {
  if (ids.length === 0) return Promise.resolve([]);
  let query = db.selectFrom('qr_codes').select(['id', 'slug', 'name', 'created_at']).where('id', 'in', ids);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.execute();
}

/** Ids of the account's QR codes, for forgetting their scans with the account. */
export async function qrIdsOfUser(db: Db, userId: number): Promise<number[]> {
  return (await db.selectFrom('qr_codes').select('id').where('user_id', '=', userId).execute()).map((row) => Number(row.id));
}

/** Link code ids after `afterId`, ascending: how the health checker learns of new link codes. */
export async function linkCodeIdsAfter(db: Db, afterId: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('qr_codes').select('id').where('type', '=', 'link').where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map((row) => Number(row.id));
}

/** The content of those of the codes that are link codes, for the health checker. */
export function linkCodeContents(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('qr_codes').select(['id', 'data']).where('type', '=', 'link').where('id', 'in', ids).execute();
}
