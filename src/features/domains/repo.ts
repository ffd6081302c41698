import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { DomainRow } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';

export function listDomains(db: Db, userId: number, page: Page): Promise<DomainRow[]> {
  return db.selectFrom('domains').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countDomains(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findDomain(db: Db, userId: number, id: number): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Any account's domain with that host: hosts are unique across the installation. */
export function findDomainByHost(db: Db, host: string): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('host', '=', host).executeTakeFirst();
}

/**
 * Another account's domain with the same host name on any port (or none). Hosts are ASCII, so substr
 * compares them exactly on both databases; adding a domain is rare enough for a scan of the table.
 */
export function findPortVariantElsewhere(db: Db, hostname: string, userId: number): Promise<Pick<DomainRow, 'host'> | undefined> {
  const prefix = `${hostname}:`;
  return db
    .selectFrom('domains')
    .select('host')
    .where((eb) => eb.or([eb('host', '=', hostname), eb(sql<string>`substr(host, 1, ${prefix.length})`, '=', prefix)]))
    .where('user_id', '<>', userId)
    .executeTakeFirst();
}

export async function insertDomain(
  db: Db,
  row: { user_id: number; host: string; scheme: string; redirect_root: string; redirect_404: string; created_at: string },
): Promise<number> {
  const inserted = await db.insertInto('domains').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateDomain(db: Db, id: number, changes: { redirect_root?: string; redirect_404?: string }): Promise<void> {
  await db.updateTable('domains').set(changes).where('id', '=', id).execute();
}

/** Deletes the domain only while `guard` holds (no link uses it), in one statement; false otherwise. */
export async function deleteDomainIf(db: Db, id: number, guard: Expression<SqlBool>): Promise<boolean> {
  const result = await db.deleteFrom('domains').where('id', '=', id).where(guard).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The address columns of a link's domain (null on the default domain), as correlated subqueries for the links' owner. */
export function domainAddressOf(domainIdColumn: string) {
  const id = sql.ref(domainIdColumn);
  return [
    sql<string | null>`(select host from domains where domains.id = ${id})`.as('host'),
    sql<string | null>`(select scheme from domains where domains.id = ${id})`.as('scheme'),
  ] as const;
}

/** The redirect's read of a branded host, prepared once by redirect/resolve (keep it one indexed lookup). */
export const publicDomainQuery = (db: Db, host: string) =>
  db.selectFrom('domains').select(['id', 'user_id', 'host', 'scheme', 'redirect_root', 'redirect_404']).where('host', '=', host);
