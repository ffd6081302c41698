export function listPixels(db, userId, page) {
    return db.selectFrom('pixels').selectAll().where('user_id', '=', userId)
        .orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}
export async function countPixels(db, userId) {
    const row = await db.selectFrom('pixels').select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
}
export function findPixel(db, userId, id) {
    return db.selectFrom('pixels').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
/** The subset of `ids` that are pixels of the account. */
export async function ownPixelIds(db, userId, ids) {
    if (ids.length === 0)
        return [];
    const rows = await db.selectFrom('pixels').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute();
    return rows.map((row) => row.id);
}
export async function insertPixel(db, row) {
    const inserted = await db.insertInto('pixels').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
}
export async function updatePixel(db, id, changes) {
    await db.updateTable('pixels').set(changes).where('id', '=', id).execute();
}
/** Removes the pixel and its link assignments (explicitly: not every database enforces the cascade). */
export async function deletePixel(db, id) {
    await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('link_pixels').where('pixel_id', '=', id).execute();
        await trx.deleteFrom('pixels').where('id', '=', id).execute();
    });
}
export async function linkIdsOfPixel(db, pixelId) {
    const rows = await db.selectFrom('link_pixels').select('link_id').where('pixel_id', '=', pixelId).execute();
    return rows.map((row) => row.link_id);
}
/** The pixels a short link fires, for the public side. */
export function findPixelsOfLink(db, linkId) {
    return db.selectFrom('link_pixels')
        .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
        .select(['pixels.type', 'pixels.tag'])
        .where('link_pixels.link_id', '=', linkId)
        .orderBy('pixels.id')
        .execute();
}
/** Replaces the pixels of a link with `pixelIds`. */
export async function setLinkPixels(db, linkId, pixelIds) {
    await db.deleteFrom('link_pixels').where('link_id', '=', linkId).execute();
    if (pixelIds.length === 0)
        return;
    await db.insertInto('link_pixels').values([...new Set(pixelIds)].map((pixel_id) => ({ link_id: linkId, pixel_id }))).execute();
}
//# sourceMappingURL=repo.js.map