import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, PixelRow } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';

export function listPixels(db: Db, userId: number, page: Page): Promise<PixelRow[]> {
  return db.selectFrom('pixels').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countPixels(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('pixels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findPixel(db: Db, userId: number, id: number): Promise<PixelRow | undefined> {
  return db.selectFrom('pixels').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** The subset of `ids` that are pixels of the account. */
export async function ownPixelIds(db: Db, userId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('pixels').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}

export async function insertPixel(db: Db, row: { user_id: number; type: string; name: string; tag: string; created_at: string }): Promise<number> {
  const inserted = await db.insertInto('pixels').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updatePixel(db: Db, id: number, changes: { name?: string; tag: string }): Promise<void> {
  await db.updateTable('pixels').set(changes).where('id', '=', id).execute();
}

/** Removes the pixel and its link assignments (explicitly: not every database enforces the cascade). */
export async function deletePixel(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('link_pixels').where('pixel_id', '=', id).execute();
    await trx.deleteFrom('pixels').where('id', '=', id).execute();
  });
}

export async function linkIdsOfPixel(db: Db, pixelId: number): Promise<number[]> {
  const rows = await db.selectFrom('link_pixels').select('link_id').where('pixel_id', '=', pixelId).execute();
  return rows.map((row) => row.link_id);
}

/** Replaces the pixels of a link with `pixelIds`. */
export async function setLinkPixels(db: Db, linkId: number, pixelIds: number[]): Promise<void> {
  await db.deleteFrom('link_pixels').where('link_id', '=', linkId).execute();
  if (pixelIds.length === 0) return;
  await db
    .insertInto('link_pixels')
    .values([...new Set(pixelIds)].map((pixel_id) => ({ link_id: linkId, pixel_id })))
    .execute();
}

/** Each link's pixel ids, for links that have any. */
export async function pixelIdsByLink(db: Db, linkIds: number[]): Promise<Map<number, number[]>> {
  const byLink = new Map<number, number[]>();
  if (linkIds.length === 0) return byLink;
  const rows = await db
    .selectFrom('link_pixels')
    .select(['link_id', 'pixel_id'])
    .where('link_id', 'in', linkIds)
    .orderBy('link_id')
    .orderBy('pixel_id')
    .execute();
  for (const row of rows) byLink.set(row.link_id, [...(byLink.get(row.link_id) ?? []), row.pixel_id]);
  return byLink;
}

/** Pixel assignments of new links, many at once. */
export async function insertLinkPixels(db: Db, rows: Array<{ link_id: number; pixel_id: number }>): Promise<void> {
  for (let at = 0; at < rows.length; at += 500)
    await db
      .insertInto('link_pixels')
      .values(rows.slice(at, at + 500))
      .execute();
}

/** A deleted link's assignments; takes the link owner's transaction. */
export async function deleteLinkPixels(db: Db, linkId: number): Promise<void> {
  await db.deleteFrom('link_pixels').where('link_id', '=', linkId).execute();
}

/** Whether the link has any pixel, as a correlated subquery of the links' owner (the redirect's row read). */
export function linkHasPixels(eb: ExpressionBuilder<Database, 'links'>) {
  return eb.exists(eb.selectFrom('link_pixels').select('pixel_id').whereRef('link_pixels.link_id', '=', 'links.id')).as('has_pixels');
}

/** The redirect's read of a link's pixels, prepared once by redirect/resolve. */
export const pixelTagsQuery = (db: Db, linkId: number) =>
  db
    .selectFrom('link_pixels')
    .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
    .select(['pixels.id', 'pixels.type', 'pixels.tag'])
    .where('link_pixels.link_id', '=', linkId)
    .orderBy('pixels.id');

/** One link's pixel ids that are the account's, in id order. */
export async function ownPixelIdsOfLink(db: Db, userId: number, linkId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('link_pixels')
    .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
    .select('link_pixels.pixel_id')
    .where('link_pixels.link_id', '=', linkId)
    .where('pixels.user_id', '=', userId)
    .orderBy('link_pixels.pixel_id')
    .execute();
  return rows.map((row) => row.pixel_id);
}
