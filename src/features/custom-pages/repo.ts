import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { BioRow, OverlayRow, SplashRow } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';
import { forgetItem } from '../channels/access.js';

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
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function ownsPage(db: Db, table: PageTable, userId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom(table).select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export function listSplash(db: Db, userId: number, page: Page) {
  return db
    .selectFrom('splash_pages')
    .select(['id', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function listOverlays(db: Db, userId: number, page: Page) {
  return db
    .selectFrom('overlays')
    .select(['id', 'type', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function listBios(db: Db, userId: number, page: Page) {
  return db
    .selectFrom('bio_pages')
    .select(['id', 'alias', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
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

/** Deletes a splash page or an overlay; takes the links' owner's transaction (its links are detached there first). */
export async function deletePageRow(db: Db, table: 'splash_pages' | 'overlays', id: number): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).execute();
}

export async function deleteBio(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await forgetItem(trx, 'bio', id);
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

/** Which of the aliases bio pages hold (all but bio page `exceptId`). */
export async function bioAliasesTaken(db: Db, aliases: string[], exceptId = 0): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let at = 0; at < aliases.length; at += 500) {
    const rows = await db
      .selectFrom('bio_pages')
      .select('alias')
      .where('alias', 'in', aliases.slice(at, at + 500))
      .where('id', '!=', exceptId)
      .execute();
    for (const row of rows) taken.add(row.alias);
  }
  return taken;
}

/** True while the bio page at `idColumn` exists and is the account's, for another owner's query. */
export function bioAlive(idColumn: string, userId: number): Expression<SqlBool> {
  return sql<SqlBool>`exists (select bio_pages.id from bio_pages where bio_pages.id = ${sql.ref(idColumn)} and bio_pages.user_id = ${userId})`;
}

export function biosByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('bio_pages').select(['id', 'alias', 'name', 'created_at']).where('id', 'in', ids).execute();
}
