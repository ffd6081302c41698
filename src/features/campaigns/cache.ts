import type { AppContext } from '../../context.js';
import { cacheKeys } from '../../lib/cache-keys.js';
import { slugsOf } from './repo.js';

/**
 * Publishes the rotator keys of the given campaigns, so every node reloads their link lists. Any
 * write that adds a link to a campaign or takes one out (assign, link add/update with `campaign`)
 * calls this with the old and new campaign ids; null and 0 are ignored.
 */
export async function invalidateCampaigns(ctx: AppContext, campaignIds: Array<number | null | undefined>): Promise<void> {
  const ids = [...new Set(campaignIds.filter((id): id is number => typeof id === 'number' && id > 0))];
  for (const slug of await slugsOf(ctx.db, ids)) ctx.invalidation.publish(cacheKeys.campaignRotator(slug));
}
