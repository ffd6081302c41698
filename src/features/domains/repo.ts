import type { Db } from '../../db/connect.js';
import type { DomainRow } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';

export function listDomains(db: Db, userId: number, page: Page): Promise<DomainRow[]> {
  return db.selectFrom('domains').selectAll().where('user_id', '=', userId)
    .orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countDomains(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('domains').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findDomain(db: Db, userId: number, id: number): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Any account's domain with that host: hosts are unique across the installation. */
export function findDomainByHost(db: Db, host: string): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('host', '=', host).executeTakeFirst();
}

export async function insertDomain(
  db: Db,
  row: { user_id: number; host: string; scheme: string; redirect_root: string; redirect_404: string; created_at: string },
): Promise<number> {
  const inserted = await db.insertInto('domains').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateDomain(
  db: Db,
  id: number,
  changes: { redirect_root?: string; redirect_404?: string },
): Promise<void> {
  await db.updateTable('domains').set(changes).where('id', '=', id).execute();
}

/** Deletes the domain only while no link uses it, in one statement; false when links use it. */
export async function deleteUnusedDomain(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('domains').where('id', '=', id)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('links').select('links.id').where('links.domain_id', '=', id))))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countLinksOfDomain(db: Db, domainId: number): Promise<number> {
  const row = await db.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain_id', '=', domainId).executeTakeFirstOrThrow();
  return Number(row.n);
}
