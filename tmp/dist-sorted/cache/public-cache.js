import { cacheKeys } from '../lib/cache-keys.js';
import { campaignSlugs, linkAddresses } from './repo.js';
/**
 * The one owner of public-cache invalidation: every service that changes what the public side serves
 * calls one of these after its write, and every node drops its copy of the keys published here.
 */
/** The public cache keys (host/alias) the given links are served under right now. */
async function linkCacheKeys(ctx, linkIds) {
    const rows = await linkAddresses(ctx.db, linkIds);
    return rows.map((row) => cacheKeys.link(row.host ?? ctx.config.DEFAULT_HOST, row.alias));
}
/**
 * Any write that changes what a short link serves (the link itself, its domain, pixels, splash or
 * overlay page, campaign) calls this with the affected link ids.
 */
export async function invalidateLinks(ctx, linkIds) {
    for (const key of await linkCacheKeys(ctx, linkIds))
        ctx.invalidation.publish(key);
}
/**
 * For writes that may move or remove a link's public address: the keys from before the write are
 * published after it too, so no node can re-cache the old address between the publish and the commit.
 */
export async function invalidateLinksAround(ctx, linkIds, write) {
    const before = await linkCacheKeys(ctx, linkIds);
    for (const key of before)
        ctx.invalidation.publish(key);
    const result = await write();
    const after = await linkCacheKeys(ctx, linkIds);
    for (const key of new Set([...before, ...after]))
        ctx.invalidation.publish(key);
    return result;
}
/** An alias on a host that may have had no link yet (a cached "no such alias" must go too). */
export function invalidateAddress(ctx, host, alias) {
    ctx.invalidation.publish(cacheKeys.link(host ?? ctx.config.DEFAULT_HOST, alias));
}
/**
 * Rotators reload their link lists: any write that adds a link to a campaign or takes one out calls
 * this with the old and new campaign ids (null and 0 are ignored).
 */
export async function invalidateCampaigns(ctx, campaignIds) {
    const ids = [...new Set(campaignIds.filter((id) => typeof id === 'number' && id > 0))];
    for (const slug of await campaignSlugs(ctx.db, ids))
        invalidateRotator(ctx, slug);
}
export function invalidateRotator(ctx, slug) {
    ctx.invalidation.publish(cacheKeys.campaignRotator(slug));
}
/** A branded domain's root and 404 redirects (and whether it is ours at all). */
export function invalidateDomain(ctx, host) {
    ctx.invalidation.publish(cacheKeys.domainRoot(host));
}
/** A QR code's public image and scan target, or a cached "no such code" for its slug. */
export function invalidateQr(ctx, slug) {
    ctx.invalidation.publish(cacheKeys.qr(slug));
}
//# sourceMappingURL=public-cache.js.map