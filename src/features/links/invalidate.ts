import type { AppContext } from '../../context.js';
import { cacheKeys } from '../../lib/cache-keys.js';
import { linkAddresses } from './repo.js';

/**
 * The links' cache keys, invalidated by the links' owner after its writes (and for the writes of pixels,
 * pages and campaigns, which change what a link serves): every node drops its copy of the keys published here.
 */

/** The public cache keys (host/alias) the given links are served under right now. */
async function linkCacheKeys(ctx: AppContext, linkIds: number[]): Promise<string[]> {
  const rows = await linkAddresses(ctx.db, linkIds);
  return rows.map((row) => cacheKeys.link(row.host ?? ctx.config.DEFAULT_HOST, row.alias));
}

/** Any write that changes what a short link serves (its pixels, splash or overlay page, campaign) ends with this. */
export async function invalidateLinks(ctx: AppContext, linkIds: number[]): Promise<void> {
  for (const key of await linkCacheKeys(ctx, linkIds)) ctx.invalidation.publish(key);
}

/**
 * For writes that may move or remove a link's public address: the keys from before the write are
 * published after it too, so no node can re-cache the old address between the publish and the commit.
 */
export async function invalidateLinksAround<T>(ctx: AppContext, linkIds: number[], write: () => Promise<T>): Promise<T> {
  const before = await linkCacheKeys(ctx, linkIds);
  for (const key of before) ctx.invalidation.publish(key);
  const result = await write();
  const after = await linkCacheKeys(ctx, linkIds);
  for (const key of new Set([...before, ...after])) ctx.invalidation.publish(key);
  return result;
}
