import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, LinkRow, LinkUpdate, NewLink } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { clickCount, forgetTargets } from '../../clicks/store.js';

/** A link with the address parts of its branded domain (null on the default domain). */
export type LinkWithDomain = LinkRow & { host: string | null; scheme: string | null; clicks: number };

export type LinkOrder = 'date' | 'click';

function withDomain(db: Db) {
  return db.selectFrom('links').leftJoin('domains', 'domains.id', 'links.domain_id')
    .selectAll('links').select(['domains.host', 'domains.scheme']).select(clickCount('link', 'links.id').as('clicks'));
}

export function findLink(db: Db, userId: number, id: number): Promise<LinkWithDomain | undefined> {
  return withDomain(db).where('links.id', '=', id).where('links.user_id', '=', userId).executeTakeFirst();
}

/** What a list of an account's links is narrowed to; the ids are the account's own (checked by the service). */
export interface LinkFilter {
  q?: string;
  campaignId?: number;
  channelId?: number;
  /** 0: the default domain. */
  domainId?: number;
}

/** Case-insensitive search in alias, long URL, title and meta title; LIKE wildcards in the term are literal. */
function search(eb: ExpressionBuilder<Database, 'links'>, q: string | undefined): Expression<SqlBool> {
  const term = q?.trim().toLowerCase();
  if (!term) return eb.lit(true);
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: 'links.alias' | 'links.long_url' | 'links.title' | 'links.meta_title') =>
    sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  return eb.or([like('links.alias'), like('links.long_url'), like('links.title'), like('links.meta_title')]);
}

function matches(filter: LinkFilter) {
  return (eb: ExpressionBuilder<Database, 'links'>) => {
    const conditions: Expression<SqlBool>[] = [search(eb, filter.q)];
    if (filter.campaignId !== undefined) conditions.push(eb('links.campaign_id', '=', filter.campaignId));
    if (filter.domainId !== undefined) conditions.push(eb('links.domain_id', '=', filter.domainId));
    if (filter.channelId !== undefined) {
      conditions.push(eb('links.id', 'in', eb.selectFrom('channel_items').select('channel_items.item_id')
        .where('channel_items.channel_id', '=', filter.channelId).where('channel_items.item_type', '=', 'links')));
    }
    return eb.and(conditions);
  };
}

export function listLinks(db: Db, userId: number, page: Page, order: LinkOrder, filter: LinkFilter = {}): Promise<LinkWithDomain[]> {
  let query = withDomain(db).where('links.user_id', '=', userId).where(matches(filter));
  if (order === 'click') query = query.orderBy('clicks', 'desc');
  return query.orderBy('links.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countLinks(db: Db, userId: number, filter: LinkFilter = {}): Promise<number> {
  const row = await db.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('links.user_id', '=', userId).where(matches(filter)).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when another link (any account) already has the alias on that domain. */
export async function aliasInUse(db: Db, domainId: number, alias: string, exceptId = 0): Promise<boolean> {
  const row = await db.selectFrom('links').select('id')
    .where('domain_id', '=', domainId).where('alias', '=', alias).where('id', '!=', exceptId).executeTakeFirst();
  return row !== undefined;
}

export async function bioAliasInUse(db: Db, alias: string): Promise<boolean> {
  return (await db.selectFrom('bio_pages').select('id').where('alias', '=', alias).executeTakeFirst()) !== undefined;
}

type OwnedTable = 'splash_pages' | 'overlays' | 'campaigns' | 'channels';

/** Whether the account owns row `id` of a table with id and user_id columns. */
export async function ownsRow(db: Db, table: OwnedTable, userId: number, id: number): Promise<boolean> {
  // The cast only narrows Kysely's typing: every OwnedTable has id and user_id.
  const row = await db.selectFrom(table as 'channels').select('id')
    .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function insertLink(db: Db, row: NewLink): Promise<number> {
  const inserted = await db.insertInto('links').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateLink(db: Db, id: number, changes: LinkUpdate): Promise<void> {
  await db.updateTable('links').set({ ...changes, updated_at: nowTimestamp() }).where('id', '=', id).execute();
}

/** Adds the link to a channel; already there is fine. */
export async function addToChannel(db: Db, channelId: number, linkId: number): Promise<void> {
  await db.insertInto('channel_items')
    .values({ channel_id: channelId, item_type: 'links', item_id: linkId, created_at: nowTimestamp() })
    .onConflict((oc) => oc.columns(['channel_id', 'item_type', 'item_id']).doNothing())
    .execute();
}

/** Removes the link with its channel entries, pixel assignments and statistics, in one transaction. */
export async function deleteLink(db: Db, userId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('channel_items').where('item_type', '=', 'links').where('item_id', '=', id).execute();
    await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute();
    await trx.deleteFrom('links').where('id', '=', id).execute();
    await forgetTargets(trx, 'link', [id], userId);
  });
}
