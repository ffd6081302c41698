import type { AppContext } from '../../context.js';
import { cacheKeys } from '../../lib/cache-keys.js';

/**
 * Publishes the public cache keys of the given links, so every node drops its copy. Any write that
 * changes what a short link serves (the link itself, its domain, pixels, splash or overlay page,
 * campaign) calls this with the affected link ids.
 */
export async function invalidateLinks(ctx: AppContext, linkIds: number[]): Promise<void> {
  if (linkIds.length === 0) return;
  const rows = await ctx.db
    .selectFrom('links')
    .leftJoin('domains', 'domains.id', 'links.domain_id')
    .select(['links.alias', 'domains.host'])
    .where('links.id', 'in', linkIds)
    .execute();
  for (const row of rows) ctx.invalidation.publish(cacheKeys.link(row.host ?? ctx.config.DEFAULT_HOST, row.alias));
}
