/**
 * Channel rows whose item still exists and belongs to the account: items deleted elsewhere
 * disappear from channels without each deleting feature having to know about channels.
 */
function liveItems(db, channelId, userId) {
    return db.selectFrom('channel_items').where('channel_id', '=', channelId).where((eb) => eb.or([
        eb.and([eb('item_type', '=', 'links'), eb.exists(eb.selectFrom('links').select('links.id')
                .whereRef('links.id', '=', 'channel_items.item_id').where('links.user_id', '=', userId))]),
        eb.and([eb('item_type', '=', 'bio'), eb.exists(eb.selectFrom('bio_pages').select('bio_pages.id')
                .whereRef('bio_pages.id', '=', 'channel_items.item_id').where('bio_pages.user_id', '=', userId))]),
        eb.and([eb('item_type', '=', 'qr'), eb.exists(eb.selectFrom('qr_codes').select('qr_codes.id')
                .whereRef('qr_codes.id', '=', 'channel_items.item_id').where('qr_codes.user_id', '=', userId))]),
    ]));
}
export async function countItems(db, channelId, userId) {
    const row = await liveItems(db, channelId, userId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
}
/** Newest assignments first. */
export function pageItems(db, channelId, userId, page) {
    return liveItems(db, channelId, userId).select(['item_type', 'item_id'])
        .orderBy('created_at', 'desc').orderBy('item_type').orderBy('item_id', 'desc')
        .limit(page.limit).offset(page.offset).execute();
}
export function linksByIds(db, ids) {
    if (ids.length === 0)
        return Promise.resolve([]);
    return db.selectFrom('links').leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.id', 'links.alias', 'links.title', 'links.meta_title', 'links.long_url', 'links.created_at', 'domains.scheme', 'domains.host'])
        .where('links.id', 'in', ids).execute();
}
export function biosByIds(db, ids) {
    if (ids.length === 0)
        return Promise.resolve([]);
    return db.selectFrom('bio_pages').select(['id', 'alias', 'name', 'created_at']).where('id', 'in', ids).execute();
}
export function qrsByIds(db, ids) {
    if (ids.length === 0)
        return Promise.resolve([]);
    return db.selectFrom('qr_codes').select(['id', 'slug', 'name', 'created_at']).where('id', 'in', ids).execute();
}
//# sourceMappingURL=items-repo.js.map