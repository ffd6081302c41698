import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { LinkRow, NewLink } from '../../db/types.js';

/** A link as the export writes it: its row, its branded domain's address and its click totals. */
export type ExportedLink = LinkRow & { host: string | null; scheme: string | null; clicks: number; uniques: number };

/**
 * One keyset page of the account's links, oldest first, after link `afterId`: the export reads pages of
 * this until one comes back short, so it never holds more than a page whatever the account's size.
 */
export function exportPage(db: Db, userId: number, afterId: number, limit: number): Promise<ExportedLink[]> {
  return db.selectFrom('links')
    .leftJoin('domains', 'domains.id', 'links.domain_id')
    .leftJoin('click_summaries as s', (join) => join.on('s.target_kind', '=', 'link').onRef('s.target_id', '=', 'links.id'))
    .selectAll('links')
    .select(['domains.host', 'domains.scheme'])
    .select([sql<number>`coalesce(s.clicks, 0)`.as('clicks'), sql<number>`coalesce(s.uniques, 0)`.as('uniques')])
    .where('links.user_id', '=', userId).where('links.id', '>', afterId)
    .orderBy('links.id').limit(limit).execute();
}

/** Parameters per statement stay far below SQLite's and PostgreSQL's limits. */
const IN_LIST = 500;

/** Which of the aliases are in use on that domain, by a link of any account or (default domain) a bio page. */
export async function takenAliases(db: Db, domainId: number, aliases: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let at = 0; at < aliases.length; at += IN_LIST) {
    const part = aliases.slice(at, at + IN_LIST);
    const links = await db.selectFrom('links').select('alias').where('domain_id', '=', domainId).where('alias', 'in', part).execute();
    for (const row of links) taken.add(row.alias);
    if (domainId !== 0) continue;
    for (const row of await db.selectFrom('bio_pages').select('alias').where('alias', 'in', part).execute()) taken.add(row.alias);
  }
  return taken;
}

/** Rows per INSERT: every row names all columns (SQLite has no DEFAULT in a VALUES list); 25 keep a statement to a few ms (docs/performance.md#import-slices). */
const ROWS_PER_INSERT = 25;

/**
 * Inserts the rows with multi-row INSERTs; answers each new id under its `domain_id/alias` key. `between`
 * runs before each statement (an import's pacer: SQLite runs a statement on the event loop's thread).
 */
export async function insertLinkRows(db: Db, rows: NewLink[], between?: () => Promise<void>): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    await between?.();
    const inserted = await db.insertInto('links').values(rows.slice(at, at + ROWS_PER_INSERT))
      .returning(['id', 'domain_id', 'alias']).execute();
    for (const row of inserted) ids.set(`${row.domain_id}/${row.alias}`, row.id);
  }
  return ids;
}
