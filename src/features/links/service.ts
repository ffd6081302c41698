import type { Static } from 'typebox';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { LinkUpdate, NewLink } from '../../db/types.js';
import { AppError, fail } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { isReserved } from '../../lib/reserved.js';
import { randomAlias } from '../../lib/secrets.js';
import { shortUrl } from '../../lib/short-url.js';
import { nowTimestamp } from '../../lib/time.js';
import { ownDomainAt } from '../domains/service.js';
import { setLinkPixels } from '../pixels/service.js';
import { readStats } from '../stats/service.js';
import { rangeTotals } from '../stats/series-service.js';
import { invalidateAddress } from '../../cache/public-cache.js';
import { addToChannel, ownsChannel } from '../channels/access.js';
import { aliasTaken } from './access.js';
import { invalidateLinksAround } from './invalidate.js';
import { linkNeighbours } from './ports.js';
import { checkAlias, linkColumns, passwordColumn } from './write/input.js';
import { resolveRefs, type LinkRefs } from './write/refs.js';
import * as repo from './repo.js';
import type { LinkInput, LinkListQuery } from './schema.js';
import { domainOf, SOCIAL_KEYS, toDetail, toEntry } from './view.js';

const RANDOM_ATTEMPTS = 8;

type ListQuery = Static<typeof LinkListQuery>;

/** A filter naming what is not the caller's answers 404, as the account's click series does for its campaign and channel. */
async function listFilter(ctx: AppContext, userId: number, query: ListQuery): Promise<repo.LinkFilter> {
  const filter: repo.LinkFilter = { q: query.q };
  if (query.campaign !== undefined) {
    if (!(await linkNeighbours().ownsCampaign(ctx.db, userId, query.campaign))) throw fail('not_found', 'Campaign');
    filter.campaignId = query.campaign;
  }
  if (query.channel !== undefined) {
    if (!(await ownsChannel(ctx.db, userId, query.channel))) throw fail('not_found', 'Channel');
    filter.channelId = query.channel;
  }
  if (query.domain?.trim()) {
    const domain = await ownDomainAt(ctx, userId, query.domain);
    if (domain === undefined) throw fail('not_found', 'Domain');
    filter.domainId = domain?.id ?? 0;
  }
  return filter;
}

export async function listLinks(ctx: AppContext, userId: number, query: ListQuery): Promise<ListData<ReturnType<typeof toEntry>>> {
  const page = toPage(query);
  const order = query.order?.trim().toLowerCase() === 'click' ? 'click' : 'date';
  const filter = await listFilter(ctx, userId, query);
  const [total, rows] = await Promise.all([repo.countLinks(ctx.db, userId, filter), repo.listLinks(ctx.db, userId, page, order, filter)]);
  return listData(page, total, rows.map((row) => toEntry(ctx.config, row)));
}

async function ownLink(ctx: AppContext, userId: number, id: number) {
  const link = await repo.findLink(ctx.db, userId, id);
  if (!link) throw fail('not_found', 'Link');
  return link;
}

/** With `from`/`to`, clicks and unique clicks count that range; the label maps are all-time totals only. */
export async function getLink(ctx: AppContext, userId: number, id: number, range: { from?: string; to?: string } = {}) {
  const link = await ownLink(ctx, userId, id);
  const stats = await readStats(ctx, 'link', id, SOCIAL_KEYS);
  return toDetail(ctx.config, link, { ...stats, ...(await rangeTotals(ctx, 'link', id, range)) });
}

/**
 * Writes the link and its pixel and channel rows together; returns the id. A link alone is one INSERT or
 * UPDATE, atomic by itself: a transaction would only add its BEGIN and COMMIT (and hold the connection).
 */
function writeLink(ctx: AppContext, refs: LinkRefs, write: (trx: Db) => Promise<number>): Promise<number> {
  if (!refs.pixels && !refs.channelId) return write(ctx.db);
  return ctx.db.transaction().execute(async (trx) => {
    const id = await write(trx);
    if (refs.pixels) await setLinkPixels(trx, id, refs.pixels);
    if (refs.channelId) await addToChannel(trx, refs.channelId, 'links', id);
    return id;
  });
}

/**
 * The unique (domain, alias) constraint settles races: the losers get a clean 409. A random alias that
 * clashes with a link (about one in 10^12) is refused by that constraint too, so it is only read against
 * bio pages, which the constraint does not cover.
 */
async function insertWithAlias(ctx: AppContext, row: NewLink, refs: LinkRefs, random = false): Promise<number> {
  const domainId = row.domain_id ?? 0;
  const taken = random
    ? domainId === 0 && (await linkNeighbours().bioAliasesTaken(ctx.db, [row.alias])).size > 0
    : await aliasTaken(ctx.db, domainId, row.alias);
  if (taken) throw fail('alias_taken');
  try {
    return await writeLink(ctx, refs, (trx) => repo.insertLink(trx, row));
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('alias_taken');
    throw error;
  }
}

async function insertWithRandomAlias(
  ctx: AppContext,
  row: Omit<NewLink, 'alias'>,
  refs: LinkRefs,
): Promise<{ id: number; alias: string }> {
  for (let attempt = 0; attempt < RANDOM_ATTEMPTS; attempt++) {
    const alias = randomAlias();
    if (isReserved(alias)) continue;
    try {
      return { id: await insertWithAlias(ctx, { ...row, alias }, refs, true), alias };
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'alias_taken')) throw error;
    }
  }
  throw fail('aliases_exhausted');
}

/** Type columns on add: an absent type is a plain direct link. */
function addColumns(refs: LinkRefs) {
  return refs.type ?? { type: 'direct', splash_id: null, overlay_id: null };
}

export async function addLink(ctx: AppContext, userId: number, input: LinkInput): Promise<{ id: number; shorturl: string }> {
  const columns = linkColumns(input);
  const custom = input.custom?.trim() ? checkAlias(input.custom.trim()) : undefined;
  const password_hash = (await passwordColumn(input.password)) ?? null;
  const refs = await resolveRefs(ctx, userId, input, false);
  const now = nowTimestamp();
  const row = {
    ...columns,
    ...addColumns(refs),
    long_url: columns.long_url!,
    user_id: userId,
    domain_id: refs.domain?.id ?? 0,
    password_hash,
    campaign_id: refs.campaignId ?? null,
    created_at: now,
    updated_at: now,
  };
  const { id, alias } = custom
    ? { id: await insertWithAlias(ctx, { ...row, alias: custom }, refs), alias: custom }
    : await insertWithRandomAlias(ctx, row, refs);
  // A node may have cached the address as unknown, or the campaign's rotation without this link.
  invalidateAddress(ctx, refs.domain?.host, alias);
  if (refs.campaignId) await linkNeighbours().campaignsChanged(ctx, [refs.campaignId]);
  return { id, shorturl: shortUrl(ctx.config, refs.domain, alias) };
}

/** Only the fields sent change; a new alias or domain is checked like on add. */
export async function updateLink(ctx: AppContext, userId: number, id: number, input: LinkInput): Promise<{ id: number; short: string }> {
  const link = await ownLink(ctx, userId, id);
  const columns: LinkUpdate = linkColumns(input);
  const alias = input.custom?.trim() ? checkAlias(input.custom.trim()) : link.alias;
  const password = await passwordColumn(input.password);
  const refs = await resolveRefs(ctx, userId, input, true);
  const domain = refs.domain === undefined ? domainOf(link) : refs.domain;
  const domainId = refs.domain === undefined ? link.domain_id : (refs.domain?.id ?? 0);
  const moved = alias !== link.alias || domainId !== link.domain_id;
  if (moved && (await aliasTaken(ctx.db, domainId, alias, { link: id }))) throw fail('alias_taken');
  Object.assign(columns, refs.type, { alias, domain_id: domainId });
  if (password !== undefined) columns.password_hash = password;
  if (refs.campaignId !== undefined) columns.campaign_id = refs.campaignId;
  try {
    await invalidateLinksAround(ctx, [id], () => writeLink(ctx, refs, async (trx) => {
      await repo.updateLink(trx, id, columns);
      return id;
    }));
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('alias_taken');
    throw error;
  }
  if (refs.campaignId !== undefined) await linkNeighbours().campaignsChanged(ctx, [link.campaign_id, refs.campaignId]);
  return { id, short: shortUrl(ctx.config, domain, alias) };
}

export async function deleteLink(ctx: AppContext, userId: number, id: number): Promise<void> {
  await ownLink(ctx, userId, id);
  await invalidateLinksAround(ctx, [id], () => repo.deleteLink(ctx.db, userId, id));
}
