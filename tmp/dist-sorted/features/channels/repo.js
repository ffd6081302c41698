const COLUMNS = ['id', 'name', 'description', 'color', 'starred'];
export function findChannel(db, userId, id) {
    return db.selectFrom('channels').select(COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
export async function countChannels(db, userId) {
    const row = await db.selectFrom('channels').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
}
export function listChannels(db, userId, page) {
    return db.selectFrom('channels').select(COLUMNS).where('user_id', '=', userId)
        .orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}
export async function nameTaken(db, userId, name, exceptId = 0) {
    const row = await db.selectFrom('channels').select('id')
        .where('user_id', '=', userId).where('name', '=', name).where('id', '!=', exceptId).executeTakeFirst();
    return row !== undefined;
}
export async function insertChannel(db, values) {
    const row = await db.insertInto('channels').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
}
export async function updateChannel(db, id, changes) {
    if (Object.keys(changes).length === 0)
        return;
    await db.updateTable('channels').set(changes).where('id', '=', id).execute();
}
/** Items are unassigned first, then the channel goes; the items themselves are untouched. */
export async function deleteChannel(db, id) {
    await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('channel_items').where('channel_id', '=', id).execute();
        await trx.deleteFrom('channels').where('id', '=', id).execute();
    });
}
/** Whether the caller owns the item; the three tables are named here only. */
export async function ownsItem(db, userId, type, id) {
    const table = type === 'links' ? 'links' : type === 'bio' ? 'bio_pages' : 'qr_codes';
    const row = await db.selectFrom(table).select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
}
/** Assigning twice keeps the first row (and its date): idempotent. */
export async function assignItem(db, channelId, type, itemId, createdAt) {
    await db.insertInto('channel_items').values({ channel_id: channelId, item_type: type, item_id: itemId, created_at: createdAt })
        .onConflict((oc) => oc.columns(['channel_id', 'item_type', 'item_id']).doNothing()).execute();
}
//# sourceMappingURL=repo.js.map