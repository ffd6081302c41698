import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, LinkRow, LinkUpdate, NewLink } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { forgetTargets } from '../../clicks/forget.js';
import { clickCount, uniqueCount } from '../../clicks/store.js';
import { channelItemIds, forgetItem } from '../channels/access.js';
import { domainAddressOf } from '../domains/access.js';
import { dropLinkPixels, linkHasPixels } from '../pixels/service.js';
import { forgetLinkTags } from '../tags/access.js';
import { brokenNow, forgetHealth, idsWithStatus, type HealthView } from '../health/access.js';

/** A link with the address parts of its branded domain (null on the default domain). */
export type LinkWithDomain = LinkRow & { host: string | null; scheme: string | null; clicks: number };

export type LinkOrder = 'date' | 'click';

function withDomain(db: Db) {
  return db.selectFrom('links').selectAll('links').select(domainAddressOf('links.domain_id')).select(clickCount('link', 'links.id').as('clicks'));
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
  /** Subqueries of link ids (tags' taggedLinkIds): a link must be in each. */
  tagged?: RawBuilder<number>[];
  /** The status the destination's last check found; `unknown` also covers links whose checks are off. */
  health?: HealthView['status'];
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

function healthIs(eb: ExpressionBuilder<Database, 'links'>, status: HealthView['status']): Expression<SqlBool> {
  if (status !== 'unknown') return eb.and([eb('links.health_check', '=', 1), eb('links.id', 'in', idsWithStatus('link', status))]);
  const known = eb.or(['ok', 'broken', 'unreachable'].map((s) => eb('links.id', 'in', idsWithStatus('link', s))));
  return eb.or([eb('links.health_check', '=', 0), eb.not(known)]);
}

function matches(filter: LinkFilter) {
  return (eb: ExpressionBuilder<Database, 'links'>) => {
    const conditions: Expression<SqlBool>[] = [search(eb, filter.q)];
    if (filter.campaignId !== undefined) conditions.push(eb('links.campaign_id', '=', filter.campaignId));
    if (filter.domainId !== undefined) conditions.push(eb('links.domain_id', '=', filter.domainId));
    if (filter.channelId !== undefined) conditions.push(eb('links.id', 'in', channelItemIds(filter.channelId, 'links')));
    for (const ids of filter.tagged ?? []) conditions.push(eb('links.id', 'in', ids));
    if (filter.health) conditions.push(healthIs(eb, filter.health));
    return eb.and(conditions);
  };
}

export function listLinks(db: Db, userId: number, page: Page, order: LinkOrder, filter: LinkFilter = {}): Promise<LinkWithDomain[]> {
  let query = withDomain(db).where('links.user_id', '=', userId).where(matches(filter));
  if (order === 'click') query = query.orderBy('clicks', 'desc');
  return query.orderBy('links.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countLinks(db: Db, userId: number, filter: LinkFilter = {}): Promise<number> {
  const row = await db
    .selectFrom('links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('links.user_id', '=', userId)
    .where(matches(filter))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Up to `limit` of the account's links that match the filter, oldest first, with what their short URLs need. */
export function matchingLinks(db: Db, userId: number, filter: LinkFilter, limit: number) {
  return db
    .selectFrom('links')
    .select(['links.id', 'links.alias'])
    .select(domainAddressOf('links.domain_id'))
    .where('links.user_id', '=', userId)
    .where(matches(filter))
    .orderBy('links.id')
    .limit(limit)
    .execute();
}

/** Parameters per statement stay far below SQLite's and PostgreSQL's limits. */
const IN_LIST = 500;

/** Which of the aliases a link of any account holds on that domain (all but link `exceptId`). */
export async function linkAliasesTaken(db: Db, domainId: number, aliases: string[], exceptId = 0): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let at = 0; at < aliases.length; at += IN_LIST) {
    const rows = await db
      .selectFrom('links')
      .select('alias')
      .where('domain_id', '=', domainId)
      .where('alias', 'in', aliases.slice(at, at + IN_LIST))
      .where('id', '!=', exceptId)
      .execute();
    for (const row of rows) taken.add(row.alias);
  }
  return taken;
}

export async function ownsLink(db: Db, userId: number, id: number): Promise<boolean> {
  return (await db.selectFrom('links').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function insertLink(db: Db, row: NewLink): Promise<number> {
  const inserted = await db.insertInto('links').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
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
    const inserted = await db
      .insertInto('links')
      .values(rows.slice(at, at + ROWS_PER_INSERT))
      .returning(['id', 'domain_id', 'alias'])
      .execute();
    for (const row of inserted) ids.set(`${row.domain_id}/${row.alias}`, row.id);
  }
  return ids;
}

export async function updateLink(db: Db, id: number, changes: LinkUpdate): Promise<void> {
  await db
    .updateTable('links')
    .set({ ...changes, updated_at: nowTimestamp() })
    .where('id', '=', id)
    .execute();
}

/** Removes the link with its channel entries, pixel assignments, tags and statistics, in one transaction; `also` joins it. */
export async function deleteLink(db: Db, userId: number, id: number, also?: (trx: Db) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await also?.(trx);
    await forgetItem(trx, 'links', id);
    await dropLinkPixels(trx, id);
    await forgetLinkTags(trx, id);
    await forgetHealth(trx, 'link', [id]);
    await trx.deleteFrom('links').where('id', '=', id).execute();
    await forgetTargets(trx, 'link', [id], userId);
  });
}

/** A link as the export writes it: its row, its branded domain's address and its click totals. */
export type ExportedLink = LinkRow & { host: string | null; scheme: string | null; clicks: number; uniques: number };

/**
 * One keyset page of the account's links, oldest first, after link `afterId`: the export reads pages of
 * this until one comes back short, so it never holds more than a page whatever the account's size.
 */
export function exportPage(db: Db, userId: number, afterId: number, limit: number): Promise<ExportedLink[]> {
  return db
    .selectFrom('links')
    .selectAll('links')
    .select(domainAddressOf('links.domain_id'))
    .select([clickCount('link', 'links.id').as('clicks'), uniqueCount('link', 'links.id').as('uniques')])
    .where('links.user_id', '=', userId)
    .where('links.id', '>', afterId)
    .orderBy('links.id')
    .limit(limit)
    .execute();
}

/** The alias and branded host (null: the default domain) each of the given links is served under now. */
export async function linkAddresses(db: Db, linkIds: number[]): Promise<Array<{ alias: string; host: string | null }>> {
  if (linkIds.length === 0) return [];
  return db.selectFrom('links').select('links.alias').select(domainAddressOf('links.domain_id')[0]).where('links.id', 'in', linkIds).execute();
}

/** Ids of the account's links, for forgetting their clicks with the account. */
export async function linkIdsOfUser(db: Db, userId: number): Promise<number[]> {
  return (await db.selectFrom('links').select('id').where('user_id', '=', userId).execute()).map((row) => Number(row.id));
}

/** The account's link ids as a subquery (within `among`, a subquery of ids, when given), for series of many links. */
export function linkIdsOf(userId: number, among?: RawBuilder<number>): RawBuilder<number> {
  return among
    ? sql<number>`(select id from links where user_id = ${userId} and id in ${among})`
    : sql<number>`(select id from links where user_id = ${userId})`;
}

/** The account's links of one campaign as a subquery. */
export function campaignLinkIds(userId: number, campaignId: number): RawBuilder<number> {
  return sql<number>`(select id from links where user_id = ${userId} and campaign_id = ${campaignId})`;
}

/** Link ids after `afterId`, ascending: how the health checker learns of new links. */
export async function linkIdsAfter(db: Db, afterId: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('links').select('id').where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map((row) => Number(row.id));
}

/** What the health checker visits of each link (links/destinations.ts makes the list). */
export function healthRows(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('links')
    .select(['id', 'user_id', 'long_url', 'routing', 'geo_targets', 'device_targets', 'language_targets', 'health_check'])
    .where('id', 'in', ids)
    .execute();
}

/** True while the link at `idColumn` exists and is the account's, for another owner's query. */
export function linkAlive(idColumn: string, userId: number): Expression<SqlBool> {
  return sql<SqlBool>`exists (select links.id from links where links.id = ${sql.ref(idColumn)} and links.user_id = ${userId})`;
}

/** Title parts and address of links, for lists of other features (channels, visit logs). */
export function linkSummaries(db: Db, ids: number[], userId?: number) {
  if (ids.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('links')
    .select(['links.id', 'links.alias', 'links.title', 'links.meta_title', 'links.long_url', 'links.created_at'])
    .select(domainAddressOf('links.domain_id'))
    .where('links.id', 'in', ids);
  if (userId !== undefined) query = query.where('links.user_id', '=', userId);
  return query.execute();
}

/** True while no link uses the domain, for its delete. */
export function noLinkOn(domainId: number): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select links.id from links where links.domain_id = ${domainId})`;
}

export async function countLinksOn(db: Db, domainId: number): Promise<number> {
  const row = await db
    .selectFrom('links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain_id', '=', domainId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The redirect's row read, prepared once by redirect/resolve: keep it one indexed lookup with these columns. */
const PUBLIC_LINK_COLUMNS = [
  'id',
  'user_id',
  'alias',
  'long_url',
  'title',
  'description',
  'type',
  'splash_id',
  'overlay_id',
  'password_hash',
  'expiry',
  'geo_targets',
  'device_targets',
  'language_targets',
  'parameters',
  'routing',
  'meta_title',
  'meta_description',
  'meta_image',
] as const;

/**
 * The link's fallback while its destination is found broken, else '': a link without a fallback (nearly all)
 * skips the health lookup, as CASE stops at its first match.
 */
const activeFallback = sql<string>`case when links.fallback_url = '' or links.health_check = 0 then ''
  when ${brokenNow('link', 'links.id')} then links.fallback_url else '' end`.as('fallback');

export const publicLinkQuery = (db: Db, domainId: number, alias: string) =>
  db
    .selectFrom('links')
    .select(PUBLIC_LINK_COLUMNS)
    .select(linkHasPixels)
    .select(activeFallback)
    .where('domain_id', '=', domainId)
    .where('alias', '=', alias);

/**
 * The redirect's resident index fills from this (redirect/resolve/link-index.ts): the next `limit` links
 * after `afterId` that could be served from their row alone (direct, no password), with their host (null:
 * the default domain). Keyset by id, so each page is one index range however large the table.
 */
export const indexableLinksQuery = (db: Db, afterId: number, limit: number) =>
  db
    .selectFrom('links')
    .select(PUBLIC_LINK_COLUMNS)
    .select(linkHasPixels)
    .select(activeFallback)
    .select(domainAddressOf('links.domain_id')[0])
    .where('id', '>', afterId)
    .where('type', '=', sql.lit('direct'))
    .where((eb) => eb.or([eb('password_hash', 'is', null), eb('password_hash', '=', sql.lit(''))]))
    .orderBy('id')
    .limit(limit);
