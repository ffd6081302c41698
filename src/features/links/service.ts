import type { Static } from 'typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { ownDomainAt } from '../domains/service.js';
import { readStats, readVariantCounts } from '../stats/service.js';
import { variantUrls } from '../../lib/routing.js';
import { rangeTotals } from '../stats/series-service.js';
import { firstChannelOf, ownsChannel } from '../channels/access.js';
import { pixelIdsOfLink } from '../pixels/service.js';
import { taggedLinkIds, tagList, tagsOfLinks } from '../tags/access.js';
import { healthOf } from '../health/access.js';
import { queueWebhookEvents, webhooksHearing } from '../webhooks/access.js';
import { shortUrl } from '../../lib/short-url.js';
import { invalidateLinksAround } from './invalidate.js';
import { linkNeighbours } from './ports.js';
import * as repo from './repo.js';
import type { LinkListQuery } from './schema.js';
import { domainOf, SOCIAL_KEYS, toDetail, toEntry } from './view.js';

type ListQuery = Static<typeof LinkListQuery>;

/** A filter naming what is not the caller's answers 404, as the account's click series does for its campaign and channel. */
export async function listFilter(ctx: AppContext, userId: number, query: ListQuery): Promise<repo.LinkFilter> {
  const filter: repo.LinkFilter = {
    q: query.q,
    tagged: tagList(
      (query.tag ?? []).filter((tag) => tag.trim()),
      'tag',
    ).map((tag) => taggedLinkIds(userId, tag)),
    health: query.health,
  };
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
  const ids = rows.map((row) => row.id);
  const [tags, health] = await Promise.all([tagsOfLinks(ctx.db, ids), healthOf(ctx.db, 'link', ids)]);
  return listData(
    page,
    total,
    rows.map((row) => toEntry(ctx.config, row, tags.get(row.id), health.get(row.id))),
  );
}

async function ownLink(ctx: AppContext, userId: number, id: number) {
  const link = await repo.findLink(ctx.db, userId, id);
  if (!link) throw fail('not_found', 'Link');
  return link;
}

/** With `from`/`to`, clicks and unique clicks count that range; the label maps are all-time totals only. */
export async function getLink(ctx: AppContext, userId: number, id: number, range: { from?: string; to?: string } = {}) {
  const link = await ownLink(ctx, userId, id);
  const urls = variantUrls(link.routing);
  const [stats, totals, pixels, channel, tags, health, variants] = await Promise.all([
    readStats(ctx, 'link', id, SOCIAL_KEYS),
    rangeTotals(ctx, 'link', id, range),
    pixelIdsOfLink(ctx.db, userId, id),
    firstChannelOf(ctx.db, userId, 'links', id),
    tagsOfLinks(ctx.db, [id]),
    healthOf(ctx.db, 'link', [id]),
    urls.length ? readVariantCounts(ctx, id, urls.length) : [],
  ]);
  // Only a link that splits its traffic gains the key: the spec's `data` keeps its own keys otherwise.
  const data = { ...stats, ...totals, ...(urls.length ? { variants: variants.map((v, n) => ({ url: urls[n]!, ...v })) } : {}) };
  return toDetail(ctx.config, link, { pixels, channel, tags: tags.get(id) ?? [], health: health.get(id) }, data);
}

export { createLink as addLink } from './write/pipeline.js';
export { updateLink } from './write/update.js';

export async function deleteLink(ctx: AppContext, userId: number, id: number): Promise<void> {
  const link = await ownLink(ctx, userId, id);
  const hearing = await webhooksHearing(ctx.db, userId, ['link.deleted']);
  const event = { id, alias: link.alias, shorturl: shortUrl(ctx.config, domainOf(link), link.alias) };
  await invalidateLinksAround(ctx, [id], () =>
    repo.deleteLink(ctx.db, userId, id, (trx) => queueWebhookEvents(trx, hearing, userId, 'link.deleted', [event])),
  );
}
