const CAMPAIGN_COLUMNS = ['campaigns.id', 'campaigns.name', 'campaigns.slug', 'campaigns.public', 'users.username'];
function withOwner(db) {
    return db.selectFrom('campaigns').innerJoin('users', 'users.id', 'campaigns.user_id').select(CAMPAIGN_COLUMNS);
}
export function findCampaign(db, userId, id) {
    return withOwner(db).where('campaigns.id', '=', id).where('campaigns.user_id', '=', userId).executeTakeFirst();
}
/** The public list page: found by id, then checked against the username and public flag by the caller. */
export function findCampaignById(db, id) {
    return withOwner(db).where('campaigns.id', '=', id).executeTakeFirst();
}
export async function countCampaigns(db, userId) {
    const row = await db.selectFrom('campaigns').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
}
export function listCampaigns(db, userId, page) {
    return withOwner(db).where('campaigns.user_id', '=', userId)
        .orderBy('campaigns.id', 'desc').limit(page.limit).offset(page.offset).execute();
}
export async function namesStartingWith(db, userId, prefix) {
    const rows = await db.selectFrom('campaigns').select('name')
        .where('user_id', '=', userId).where('name', 'like', `${prefix}%`).execute();
    return new Set(rows.map((r) => r.name));
}
/** Another campaign of the same account with this name (excluding `exceptId`). */
export async function nameTaken(db, userId, name, exceptId = 0) {
    const row = await db.selectFrom('campaigns').select('id')
        .where('user_id', '=', userId).where('name', '=', name).where('id', '!=', exceptId).executeTakeFirst();
    return row !== undefined;
}
export async function slugTaken(db, slug, exceptId = 0) {
    const row = await db.selectFrom('campaigns').select('id').where('slug', '=', slug).where('id', '!=', exceptId).executeTakeFirst();
    return row !== undefined;
}
export async function insertCampaign(db, values) {
    const row = await db.insertInto('campaigns').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
}
export async function updateCampaign(db, id, changes) {
    await db.updateTable('campaigns').set(changes).where('id', '=', id).execute();
}
/** Links leave the campaign (they are kept) before it goes, in one transaction. Returns their ids. */
export function deleteCampaign(db, id) {
    return db.transaction().execute(async (trx) => {
        const links = await trx.selectFrom('links').select('id').where('campaign_id', '=', id).execute();
        await trx.updateTable('links').set({ campaign_id: null }).where('campaign_id', '=', id).execute();
        await trx.deleteFrom('campaigns').where('id', '=', id).execute();
        return links.map((l) => l.id);
    });
}
/** The caller's link, for the assign check; campaign_id tells which rotator loses it. */
export function findOwnLink(db, userId, linkId) {
    return db.selectFrom('links').select(['id', 'campaign_id']).where('id', '=', linkId).where('user_id', '=', userId).executeTakeFirst();
}
export async function setLinkCampaign(db, linkId, campaignId) {
    await db.updateTable('links').set({ campaign_id: campaignId }).where('id', '=', linkId).execute();
}
export function findCampaignIdBySlug(db, slug) {
    return db.selectFrom('campaigns').select('id').where('slug', '=', slug).executeTakeFirst();
}
/** The campaign's links in a stable order, with their domain for short URLs and cache keys. */
export function campaignLinks(db, campaignId, limit) {
    return db.selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.id', 'links.user_id', 'links.alias', 'links.title', 'links.meta_title', 'links.long_url', 'links.password_hash', 'links.expiry', 'domains.scheme', 'domains.host'])
        .where('links.campaign_id', '=', campaignId)
        .orderBy('links.id')
        .limit(limit)
        .execute();
}
//# sourceMappingURL=repo.js.map