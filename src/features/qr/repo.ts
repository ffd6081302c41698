import type { Db } from '../../db/connect.js';
import type { QrCodesTable, QrRow } from '../../db/types.js';
import type { Insertable, Updateable } from 'kysely';
import type { Page } from '../../lib/pagination.js';
import { clickCount, forgetTargets } from '../../clicks/store.js';

/** List and detail columns: never the logo, which may be a data URI of hundreds of kilobytes. */
const SUMMARY = ['id', 'slug', 'name', 'created_at'] as const;
const scans = () => clickCount('qr', 'qr_codes.id').as('scans');

export type QrSummary = Pick<QrRow, (typeof SUMMARY)[number]> & { scans: number };

export async function listQrs(db: Db, userId: number, page: Page): Promise<{ total: number; rows: QrSummary[] }> {
  const count = await db.selectFrom('qr_codes').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('qr_codes').select(SUMMARY).select(scans()).where('user_id', '=', userId)
    .orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { total: Number(count.n), rows };
}

export function findQrSummary(db: Db, userId: number, id: number): Promise<QrSummary | undefined> {
  return db.selectFrom('qr_codes').select(SUMMARY).select(scans()).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** What an update needs to merge the new values with the stored ones. */
export function findQrForUpdate(db: Db, userId: number, id: number) {
  return db.selectFrom('qr_codes').select(['id', 'slug', 'type', 'foreground', 'background'])
    .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Everything the public image and scan addresses need. */
export function findQrBySlug(db: Db, slug: string) {
  return db.selectFrom('qr_codes').select(['id', 'type', 'data', 'payload', 'foreground', 'background', 'logo'])
    .where('slug', '=', slug).executeTakeFirst();
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

/** Deletes a code with its channel entries and statistics; returns its slug, or undefined when the caller has no such code. */
export function deleteQr(db: Db, userId: number, id: number): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('qr_codes').where('id', '=', id).where('user_id', '=', userId)
      .returning('slug').executeTakeFirst();
    if (!deleted) return undefined;
    await trx.deleteFrom('channel_items').where('item_type', '=', 'qr').where('item_id', '=', id).execute();
    await forgetTargets(trx, 'qr', [id], userId);
    return deleted.slug;
  });
}
