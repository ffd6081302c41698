import type { AppContext } from '../../context.js';
import { cacheKeys } from '../../lib/cache-keys.js';

/** The public cache keys (host/alias) the given links are served under right now. */
async function linkCacheKeys(ctx: AppContext, linkIds: number[]): Promise<string[]> {
  if (linkIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('links')
    .leftJoin('domains', 'domains.id', 'links.domain_id')
    .select(['links.alias', 'domains.host'])
    .where('links.id', 'in', linkIds)
    .execute();
  return rows.map((row) => cacheKeys.link(row.host ?? ctx.config.DEFAULT_HOST, row.alias));
}

/**
 * Publishes the public cache keys of the given links, so every node drops its copy. Any write that
 * changes what a short link serves (the link itself, its domain, pixels, splash or overlay page,
 * campaign) calls this with the affected link ids.
 */
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
