import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connect.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import type { LinkRow, LinkUpdate } from '../../../db/types.js';
import { fail } from '../../../lib/errors.js';
import { shortUrl } from '../../../lib/short-url.js';
import { addToChannel } from '../../channels/access.js';
import { setLinkPixels } from '../../pixels/service.js';
import { setLinkTags, tagList } from '../../tags/access.js';
import { aliasTaken } from '../access.js';
import { destinationsChanged } from '../../health/access.js';
import { queueWebhookEvents, webhooksHearing, type Hearing } from '../../webhooks/access.js';
import { destinationsOf } from '../destinations.js';
import { invalidateLinksAround } from '../invalidate.js';
import { linkNeighbours } from '../ports.js';
import * as repo from '../repo.js';
import type { LinkInput } from '../schema.js';
import { domainOf, typeField } from '../view.js';
import { checkAlias, linkColumns, passwordColumn, routingColumn } from './input.js';
import { resolveRefs, type LinkRefs } from './refs.js';

/**
 * `url/update` through the pipeline's stages: validate and normalise the sent fields, check a moved
 * alias is free, write the row with its pixels and channel, invalidate the old and new addresses.
 */

/** What update writes besides the row's columns; undefined fields stay as they are. */
interface Attached {
  refs: LinkRefs;
  userId: number;
  tags?: string[];
  /** The destination or its checks changed: the last check's finding (and a fallback it set off) no longer holds. */
  recheck: boolean;
  /** Webhooks to tell of the update (link.updated), in its transaction. */
  hearing: Hearing;
  /** The event's data: the link as it is after the update. */
  event: Record<string, unknown>;
}

/** A link alone is one UPDATE, atomic by itself: a transaction would only add its BEGIN and COMMIT (and hold the connection). */
function writeWithRefs(ctx: AppContext, { refs, userId, tags, recheck, hearing, event }: Attached, id: number, columns: LinkUpdate): Promise<void> {
  const run = async (db: Db) => {
    await repo.updateLink(db, id, columns);
    if (recheck) await destinationsChanged(db, 'link', id);
    if (refs.pixels) await setLinkPixels(db, id, refs.pixels);
    if (tags) await setLinkTags(db, userId, id, tags);
    if (refs.channelId) await addToChannel(db, refs.channelId, 'links', id);
    await queueWebhookEvents(db, hearing, userId, 'link.updated', [event]);
  };
  return refs.pixels || tags || refs.channelId || recheck || hearing.length > 0 ? ctx.db.transaction().execute(run) : run(ctx.db);
}

/** The detail names an overlay link's type `overlay-{id}`: sent back unchanged it is kept, though update sets no overlay. */
function keptOverlay(input: LinkInput, link: repo.LinkWithDomain): LinkInput {
  const same = link.type === 'overlay' && input.type?.trim().toLowerCase() === typeField(link);
  return same ? { ...input, type: undefined } : input;
}

/** Only the fields sent change; a new alias or domain is checked like on add. */
export async function updateLink(ctx: AppContext, userId: number, id: number, sent: LinkInput): Promise<{ id: number; short: string }> {
  const link = await repo.findLink(ctx.db, userId, id);
  if (!link) throw fail('not_found', 'Link');
  const input = keptOverlay(sent, link);
  const columns: LinkUpdate = linkColumns(input);
  const routing = routingColumn(input, link.routing);
  if (routing !== undefined) columns.routing = routing;
  const alias = input.custom?.trim() ? checkAlias(input.custom.trim()) : link.alias;
  const password = await passwordColumn(input.password);
  const tags = input.tags === undefined ? undefined : tagList(input.tags);
  const refs = await resolveRefs(ctx, userId, input, true);
  const domain = refs.domain === undefined ? domainOf(link) : refs.domain;
  const domainId = refs.domain === undefined ? link.domain_id : (refs.domain?.id ?? 0);
  const moved = alias !== link.alias || domainId !== link.domain_id;
  if (moved && (await aliasTaken(ctx.db, domainId, alias, { link: id }))) throw fail('alias_taken');
  Object.assign(columns, refs.type, { alias, domain_id: domainId });
  if (password !== undefined) columns.password_hash = password;
  if (refs.campaignId !== undefined) columns.campaign_id = refs.campaignId;
  try {
    const recheck = destinationsMoved(link, columns) || (columns.health_check !== undefined && columns.health_check !== Number(link.health_check));
    const hearing = await webhooksHearing(ctx.db, userId, ['link.updated']);
    const event = { id, alias, shorturl: shortUrl(ctx.config, domain, alias), longurl: columns.long_url ?? link.long_url };
    await invalidateLinksAround(ctx, [id], () => writeWithRefs(ctx, { refs, userId, tags, recheck, hearing, event }, id, columns));
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('alias_taken');
    throw error;
  }
  if (refs.campaignId !== undefined) await linkNeighbours().campaignsChanged(ctx, [link.campaign_id, refs.campaignId]);
  return { id, short: shortUrl(ctx.config, domain, alias) };
}

/** The update changes where the link may send visitors: the last check's finding no longer holds. */
function destinationsMoved(link: LinkRow, columns: LinkUpdate): boolean {
  const before = destinationsOf(link);
  const after = destinationsOf({ ...link, ...(columns as Partial<LinkRow>) });
  return before.length !== after.length || before.some((url, i) => url !== after[i]);
}
