import { resolveLinkDomain } from '../domains/service.js';
import { ownPixelIds } from '../pixels/service.js';
import { parseType } from './input.js';
import { ownsRow } from './repo.js';
import { fail } from '../../lib/errors.js';
async function typeRef(ctx, userId, value, onUpdate) {
    const choice = parseType(value, onUpdate);
    if (!choice)
        return undefined;
    if (choice.type === 'overlay') {
        if (!(await ownsRow(ctx.db, 'overlays', userId, choice.overlayId)))
            throw fail('unknown_reference', 'type', 'overlay', choice.overlayId, 'overlay');
        return { type: 'overlay', splash_id: null, overlay_id: choice.overlayId };
    }
    const splashId = choice.splashId ?? null;
    if (splashId !== null && !(await ownsRow(ctx.db, 'splash_pages', userId, splashId)))
        throw fail('unknown_reference', 'type', 'splash page', splashId, 'splash');
    return { type: choice.type, splash_id: splashId, overlay_id: null };
}
async function pixelRefs(ctx, userId, ids) {
    if (ids === undefined)
        return undefined;
    const unique = [...new Set(ids)];
    const owned = new Set(await ownPixelIds(ctx, userId, unique));
    const missing = unique.find((id) => !owned.has(id));
    if (missing !== undefined)
        throw fail('unknown_reference', 'pixels', 'pixel', missing, 'pixels');
    return unique;
}
/** 0 and null mean "none"; any other id must be the caller's. */
async function ownedId(ctx, userId, table, id) {
    if (id === undefined)
        return undefined;
    if (id === null || id === 0)
        return null;
    if (!(await ownsRow(ctx.db, table, userId, id))) {
        throw table === 'campaigns' ? fail('unknown_reference', 'campaign', 'campaign', id, 'campaigns') : fail('unknown_reference', 'channel', 'channel', id, 'channels');
    }
    return id;
}
/** Checks every id the request names against the caller's account; on add an absent domain is the default one. */
export async function resolveRefs(ctx, userId, input, onUpdate) {
    const refs = {
        type: await typeRef(ctx, userId, input.type, onUpdate),
        pixels: await pixelRefs(ctx, userId, input.pixels),
        campaignId: await ownedId(ctx, userId, 'campaigns', input.campaign),
        channelId: (await ownedId(ctx, userId, 'channels', input.channel)) ?? undefined,
    };
    if (!onUpdate || input.domain !== undefined)
        refs.domain = await resolveLinkDomain(ctx, userId, input.domain);
    return refs;
}
//# sourceMappingURL=refs.js.map