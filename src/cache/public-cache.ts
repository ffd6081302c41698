import type { AppContext } from '../context.js';
import { cacheKeys } from '../lib/cache-keys.js';

/**
 * Publishes public-cache keys to every node. Each entry point is called by the owner of the rows behind
 * it, from its own write functions (tests/architecture.unit.test.ts checks who imports which), so a new
 * writer cannot forget; the links' keys, which need their addresses read, are links/invalidate.ts.
 */

/** An alias on a host that may have had no link yet (a cached "no such alias" must go too). */
export function invalidateAddress(ctx: AppContext, host: string | null | undefined, alias: string): void {
  ctx.invalidation.publish(cacheKeys.link(host ?? ctx.config.DEFAULT_HOST, alias));
}

/** A campaign's rotator reloads its link list. */
export function invalidateRotator(ctx: AppContext, slug: string): void {
  ctx.invalidation.publish(cacheKeys.campaignRotator(slug));
}

/** A branded domain's root and 404 redirects (and whether it is ours at all). */
export function invalidateDomain(ctx: AppContext, host: string): void {
  ctx.invalidation.publish(cacheKeys.domainRoot(host));
}

/** A QR code's public image and scan target, or a cached "no such code" for its slug. */
export function invalidateQr(ctx: AppContext, slug: string): void {
  ctx.invalidation.publish(cacheKeys.qr(slug));
}
