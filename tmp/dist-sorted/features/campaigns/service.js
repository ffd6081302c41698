import { isUniqueViolation } from '../../db/dialect.js';
import { fail } from '../../lib/errors.js';
import { listData } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { invalidateCampaigns, invalidateLinks, invalidateRotator } from '../../cache/public-cache.js';
import * as repo from './repo.js';
const SLUG = /^[A-Za-z0-9_-]{3,64}$/;
const DEFAULT_NAME = 'Campaign';
/** The tail of the list URL: the slug, else the name made URL-safe, else "campaign"; then a dash and the id. */
export function listTail(campaign) {
    const fromName = campaign.name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
        .replace(/[^a-z0-9]+/g, '-').slice(0, 64).replace(/^-+|-+$/g, '');
    return `${campaign.slug ?? (fromName || 'campaign')}-${campaign.id}`;
}
export function toView(config, row) {
    return {
        id: row.id,
        name: row.name,
        public: row.public === 1,
        rotator: row.slug ? `${config.BASE_URL}/r/${row.slug}` : false,
        list: `${config.BASE_URL}/u/${encodeURIComponent(row.username)}/${listTail(row)}`,
    };
}
export async function listCampaigns(ctx, userId, page) {
    const [total, rows] = await Promise.all([repo.countCampaigns(ctx.db, userId), repo.listCampaigns(ctx.db, userId, page)]);
    return listData(page, total, rows.map((row) => toView(ctx.config, row)));
}
async function ownCampaign(ctx, userId, id) {
    const row = await repo.findCampaign(ctx.db, userId, id);
    if (!row)
        throw fail('not_found', 'Campaign');
    return row;
}
/** undefined keeps `current`; "" and null remove the slug. */
function checkSlug(slug, current) {
    if (slug === undefined)
        return current;
    if (slug === null || slug.trim() === '')
        return null;
    if (!SLUG.test(slug.trim()))
        throw fail('slug_invalid');
    return slug.trim();
}
/** "Campaign N" with the first free N from the number of campaigns plus one, so a nameless add never collides. */
async function defaultName(ctx, userId) {
    const taken = await repo.namesStartingWith(ctx.db, userId, `${DEFAULT_NAME} `);
    let n = (await repo.countCampaigns(ctx.db, userId)) + 1;
    while (taken.has(`${DEFAULT_NAME} ${n}`))
        n += 1;
    return `${DEFAULT_NAME} ${n}`;
}
async function checkFree(ctx, userId, fields, exceptId = 0) {
    if (await repo.nameTaken(ctx.db, userId, fields.name, exceptId))
        throw fail('campaign_name_taken');
    if (fields.slug && (await repo.slugTaken(ctx.db, fields.slug, exceptId)))
        throw fail('slug_taken');
}
/** Runs a write, turning a lost race on the unique name or slug into the same 409 the checks give. */
async function saving(ctx, userId, fields, exceptId, write) {
    try {
        return await write();
    }
    catch (error) {
        if (!isUniqueViolation(error))
            throw error;
        await checkFree(ctx, userId, fields, exceptId);
        throw fail('campaign_name_taken');
    }
}
export async function addCampaign(ctx, userId, input) {
    const fields = {
        name: input.name?.trim() || (await defaultName(ctx, userId)),
        slug: checkSlug(input.slug, null),
        public: input.public ? 1 : 0,
    };
    await checkFree(ctx, userId, fields);
    const id = await saving(ctx, userId, fields, 0, () => repo.insertCampaign(ctx.db, { user_id: userId, ...fields, created_at: nowTimestamp() }));
    if (fields.slug)
        invalidateRotator(ctx, fields.slug);
    return toView(ctx.config, await ownCampaign(ctx, userId, id));
}
export async function updateCampaign(ctx, userId, id, input) {
    const current = await ownCampaign(ctx, userId, id);
    const name = input.name.trim();
    if (!name)
        throw fail('name_required', 'The campaign name');
    const fields = {
        name,
        slug: checkSlug(input.slug, current.slug),
        public: input.public === undefined ? current.public : input.public ? 1 : 0,
    };
    await checkFree(ctx, userId, fields, id);
    await saving(ctx, userId, fields, id, () => repo.updateCampaign(ctx.db, id, fields));
    for (const slug of new Set([current.slug, fields.slug]))
        if (slug)
            invalidateRotator(ctx, slug);
    return toView(ctx.config, await ownCampaign(ctx, userId, id));
}
export async function assignLink(ctx, userId, campaignId, linkId) {
    const campaign = await ownCampaign(ctx, userId, campaignId);
    const link = await repo.findOwnLink(ctx.db, userId, linkId);
    if (!link)
        throw fail('not_found', 'Link');
    await repo.setLinkCampaign(ctx.db, linkId, campaign.id);
    await invalidateCampaigns(ctx, [campaign.id, link.campaign_id]);
    await invalidateLinks(ctx, [linkId]);
}
export async function deleteCampaign(ctx, userId, id) {
    const campaign = await ownCampaign(ctx, userId, id);
    const linkIds = await repo.deleteCampaign(ctx.db, id);
    if (campaign.slug)
        invalidateRotator(ctx, campaign.slug);
    await invalidateLinks(ctx, linkIds);
}
//# sourceMappingURL=service.js.map