import type { Db } from '../../db/connect.js';
import type { BioRow, OverlayRow, SplashRow } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';

export type PageTable = 'splash_pages' | 'overlays' | 'bio_pages';
type Owned<T> = Omit<T, 'id' | 'user_id' | 'created_at'>;
export type SplashFields = Owned<SplashRow>;
export type OverlayFields = Owned<OverlayRow>;
export type BioFields = Owned<BioRow>;

/** Public readers (exported to the redirect feature through public.ts). */
export function findSplashById(db: Db, id: number): Promise<SplashRow | undefined> {
  return db.selectFrom('splash_pages').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOverlayById(db: Db, id: number): Promise<OverlayRow | undefined> {
  return db.selectFrom('overlays').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findBioByAlias(db: Db, alias: string): Promise<BioRow | undefined> {
  return db.selectFrom('bio_pages').selectAll().where('alias', '=', alias).executeTakeFirst();
}

export async function countOwned(db: Db, table: PageTable, userId: number): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function ownsPage(db: Db, table: PageTable, userId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom(table).select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export function listSplash(db: Db, userId: number, page: Page) {
  return db.selectFrom('splash_pages').select(['id', 'name', 'created_at'])
    .where('user_id', '=', userId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export function listOverlays(db: Db, userId: number, page: Page) {
  return db.selectFrom('overlays').select(['id', 'type', 'name', 'created_at'])
    .where('user_id', '=', userId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export function listBios(db: Db, userId: number, page: Page) {
  return db.selectFrom('bio_pages').select(['id', 'alias', 'name', 'created_at'])
    .where('user_id', '=', userId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

type Stamp = { user_id: number; created_at: string };

export async function insertSplash(db: Db, values: SplashFields & Stamp): Promise<number> {
  return (await db.insertInto('splash_pages').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function insertOverlay(db: Db, values: OverlayFields & Stamp): Promise<number> {
  return (await db.insertInto('overlays').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function insertBio(db: Db, values: BioFields & Stamp): Promise<number> {
  return (await db.insertInto('bio_pages').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateSplash(db: Db, id: number, changes: Partial<SplashFields>): Promise<void> {
  if (Object.keys(changes).length > 0) await db.updateTable('splash_pages').set(changes).where('id', '=', id).execute();
}

export async function updateOverlay(db: Db, id: number, changes: Partial<OverlayFields>): Promise<void> {
  if (Object.keys(changes).length > 0) await db.updateTable('overlays').set(changes).where('id', '=', id).execute();
}

export async function updateBio(db: Db, id: number, changes: Partial<BioFields>): Promise<void> {
  if (Object.keys(changes).length > 0) await db.updateTable('bio_pages').set(changes).where('id', '=', id).execute();
}

/** How links point at a splash page or an overlay: the id column and the link type that uses it. */
export const LINK_USE = {
  splash_pages: { column: 'splash_id', type: 'splash' },
  overlays: { column: 'overlay_id', type: 'overlay' },
} as const;

export async function linksUsing(db: Db, table: keyof typeof LINK_USE, id: number): Promise<number[]> {
  const rows = await db.selectFrom('links').select('id').where(LINK_USE[table].column, '=', id).execute();
  return rows.map((r) => r.id);
}

/** Links using the page fall back to direct redirects in the same transaction, so none breaks. Returns their ids. */
export function deleteUsedPage(db: Db, table: keyof typeof LINK_USE, id: number): Promise<number[]> {
  const { column, type } = LINK_USE[table];
  return db.transaction().execute(async (trx) => {
    const ids = await linksUsing(trx, table, id);
    await trx.updateTable('links').set({ type: 'direct' }).where(column, '=', id).where('type', '=', type).execute();
    await trx.updateTable('links').set({ [column]: null }).where(column, '=', id).execute();
    await trx.deleteFrom(table).where('id', '=', id).execute();
    return ids;
  });
}

export async function deleteBio(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('channel_items').where('item_type', '=', 'bio').where('item_id', '=', id).execute();
    await trx.deleteFrom('bio_pages').where('id', '=', id).execute();
  });
}

export function findOwnBio(db: Db, userId: number, id: number) {
  return db.selectFrom('bio_pages').select(['id', 'alias']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Whole rows of the account's own pages, for the dashboard's editors. */
export function findOwnSplash(db: Db, userId: number, id: number): Promise<SplashRow | undefined> {
  return db.selectFrom('splash_pages').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export function findOwnOverlay(db: Db, userId: number, id: number): Promise<OverlayRow | undefined> {
  return db.selectFrom('overlays').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export function findOwnBioRow(db: Db, userId: number, id: number): Promise<BioRow | undefined> {
  return db.selectFrom('bio_pages').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Bio pages live on the default domain, so their alias must be free among its links too. */
export async function aliasTaken(db: Db, alias: string, exceptBioId = 0): Promise<boolean> {
  const [bio, link] = await Promise.all([
    db.selectFrom('bio_pages').select('id').where('alias', '=', alias).where('id', '!=', exceptBioId).executeTakeFirst(),
    db.selectFrom('links').select('id').where('domain_id', '=', 0).where('alias', '=', alias).executeTakeFirst(),
  ]);
  return bio !== undefined || link !== undefined;
}
