import { fail } from '../../lib/errors.js';
import { listData, toPage } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { invalidateLinks } from '../../cache/public-cache.js';
import * as repo from './repo.js';
import { neutralPixelType, PIXEL_TAG, PIXEL_TYPES } from './types.js';
function toView(row) {
    return { id: row.id, type: row.type, name: row.name, tag: row.tag, date: row.created_at };
}
function required(value, field) {
    const trimmed = value.trim();
    if (!trimmed)
        throw fail('invalid_field', `${field} must not be empty.`);
    return trimmed;
}
function checkTag(value) {
    const tag = required(value, 'tag');
    if (!PIXEL_TAG.test(tag))
        throw fail('pixel_tag_invalid');
    return tag;
}
export async function listPixels(ctx, userId, query) {
    const page = toPage(query);
    const [total, rows] = await Promise.all([repo.countPixels(ctx.db, userId), repo.listPixels(ctx.db, userId, page)]);
    return listData(page, total, rows.map(toView));
}
export async function addPixel(ctx, userId, input) {
    const type = neutralPixelType(input.type);
    if (!type)
        throw fail('pixel_type_invalid', input.type, PIXEL_TYPES.join(', '));
    return repo.insertPixel(ctx.db, {
        user_id: userId,
        type,
        name: required(input.name, 'name'),
        tag: checkTag(input.tag),
        created_at: nowTimestamp(),
    });
}
async function ownPixel(ctx, userId, id) {
    const row = await repo.findPixel(ctx.db, userId, id);
    if (!row)
        throw fail('not_found', 'Pixel');
    return row;
}
/** Links carrying the pixel serve its tag, so their cached copies are dropped. */
export async function updatePixel(ctx, userId, id, input) {
    await ownPixel(ctx, userId, id);
    const changes = { tag: checkTag(input.tag) };
    if (input.name !== undefined)
        changes.name = required(input.name, 'name');
    await repo.updatePixel(ctx.db, id, changes);
    await invalidateLinks(ctx, await repo.linkIdsOfPixel(ctx.db, id));
}
export async function deletePixel(ctx, userId, id) {
    await ownPixel(ctx, userId, id);
    const linkIds = await repo.linkIdsOfPixel(ctx.db, id);
    await repo.deletePixel(ctx.db, id);
    await invalidateLinks(ctx, linkIds);
}
/** Which of the ids are the account's pixels (for links that name them). */
export function ownPixelIds(ctx, userId, ids) {
    return repo.ownPixelIds(ctx.db, userId, ids);
}
/** Replaces a link's pixels; takes the link writer's transaction so both land together. */
export function setLinkPixels(db, linkId, pixelIds) {
    return repo.setLinkPixels(db, linkId, pixelIds);
}
//# sourceMappingURL=service.js.map