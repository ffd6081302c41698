import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { forgetTargets } from '../../clicks/forget.js';
import { shortUrl } from '../../lib/short-url.js';
import { dateOnly } from '../../lib/time.js';
import type { ItemSource } from '../channels/ports.js';
import type { HealthSource } from '../health/access.js';
import { destinationsOf } from './destinations.js';
import { invalidateLinks } from './invalidate.js';
import { linkNeighbours } from './ports.js';
import * as refsRepo from './refs-repo.js';
import * as repo from './repo.js';

/**
 * What other features may read and write of links; the SQL stays in repo.ts and refs-repo.ts, and every
 * write here drops the cached copies of the links it changed.
 */

export { campaignLinks, type CampaignLinkRow, type PageKind } from './refs-repo.js';
export {
  campaignLinkIds,
  countLinksOn,
  linkAlive,
  linkIdsOf,
  linkSummaries,
  noLinkOn,
  ownsLink,
  publicLinkQuery,
  indexableLinksQuery,
} from './repo.js';
export { invalidateLinks } from './invalidate.js';
export { destinationsOf } from './destinations.js';

/**
 * On the default domain a bio page owns its alias too (both are served at `/{alias}`): the one place the
 * shared alias space is checked. Answers which of `aliases` are taken on the domain, by any account.
 */
export async function aliasesTaken(db: Db, domainId: number, aliases: string[], except: { link?: number; bio?: number } = {}): Promise<Set<string>> {
  const taken = await repo.linkAliasesTaken(db, domainId, aliases, except.link);
  if (domainId !== 0) return taken;
  for (const alias of await linkNeighbours().bioAliasesTaken(
    db,
    aliases.filter((a) => !taken.has(a)),
    except.bio,
  ))
    taken.add(alias);
  return taken;
}

export async function aliasTaken(db: Db, domainId: number, alias: string, except: { link?: number; bio?: number } = {}): Promise<boolean> {
  return (await aliasesTaken(db, domainId, [alias], except)).size > 0;
}

/** Puts the caller's link into the campaign; the link's previous campaign id (null: none), undefined when no such link is the caller's. */
export async function moveLinkToCampaign(ctx: AppContext, userId: number, linkId: number, campaignId: number): Promise<number | null | undefined> {
  const link = await refsRepo.findOwnLinkCampaign(ctx.db, userId, linkId);
  if (!link) return undefined;
  await refsRepo.setLinkCampaign(ctx.db, linkId, campaignId);
  await invalidateLinks(ctx, [linkId]);
  return link.campaign_id;
}

/** The campaign's links leave it in the transaction that `remove` deletes the campaign in. */
export async function leaveCampaign(ctx: AppContext, campaignId: number, remove: (trx: Db) => Promise<void>): Promise<void> {
  const ids = await ctx.db.transaction().execute(async (trx) => {
    const left = await refsRepo.leaveCampaign(trx, campaignId);
    await remove(trx);
    return left;
  });
  await invalidateLinks(ctx, ids);
}

/** Links showing the page serve a cached copy of it: after every change of the page. */
export async function pageChanged(ctx: AppContext, kind: refsRepo.PageKind, id: number): Promise<void> {
  await invalidateLinks(ctx, await refsRepo.linksUsing(ctx.db, kind, id));
}

/** Links using the page fall back to direct redirects in the transaction that `remove` deletes the page in. */
export async function detachPage(ctx: AppContext, kind: refsRepo.PageKind, id: number, remove: (trx: Db) => Promise<void>): Promise<void> {
  const ids = await ctx.db.transaction().execute(async (trx) => {
    const detached = await refsRepo.detachPage(trx, kind, id);
    await remove(trx);
    return detached;
  });
  await invalidateLinks(ctx, ids);
}

/** The account's links' clicks go with the account, inside its delete transaction. */
export async function forgetAccountLinks(trx: Db, userId: number): Promise<void> {
  await forgetTargets(trx, 'link', await repo.linkIdsOfUser(trx, userId), null);
}

/** Links as channel items: plugged into channels by src/compose.ts. */
export const linkItemSource: ItemSource = {
  owns: repo.ownsLink,
  alive: repo.linkAlive,
  views: async (ctx, ids) =>
    new Map(
      (await repo.linkSummaries(ctx.db, ids)).map((l) => [
        l.id,
        {
          title: l.title || l.meta_title || l.long_url,
          preview: l.long_url,
          link: shortUrl(ctx.config, l.scheme && l.host ? { scheme: l.scheme, host: l.host } : null, l.alias),
          date: dateOnly(l.created_at),
        },
      ]),
    ),
};

/** Links as the health checker's targets: plugged into health by src/compose.ts. */
export const linkHealthSource: HealthSource = {
  owns: repo.ownsLink,
  idsAfter: repo.linkIdsAfter,
  destinations: async (db, ids) =>
    new Map(
      (await repo.healthRows(db, ids)).map((row) => [
        Number(row.id),
        { urls: destinationsOf(row), enabled: Number(row.health_check) === 1, owner: Number(row.user_id) },
      ]),
    ),
  // A broken link with a fallback redirects elsewhere: its cached copies and resident entry must go.
  changed: invalidateLinks,
};
