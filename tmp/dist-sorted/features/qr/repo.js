import { clickCount, forgetTargets } from '../../clicks/store.js';
/** List and detail columns: never the logo, which may be a data URI of hundreds of kilobytes. */
const SUMMARY = ['id', 'slug', 'name', 'created_at'];
const scans = () => clickCount('qr', 'qr_codes.id').as('scans');
export async function listQrs(db, userId, page) {
    const count = await db.selectFrom('qr_codes').select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId).executeTakeFirstOrThrow();
    const rows = await db.selectFrom('qr_codes').select(SUMMARY).select(scans()).where('user_id', '=', userId)
        .orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    return { total: Number(count.n), rows };
}
export function findQrSummary(db, userId, id) {
    return db.selectFrom('qr_codes').select(SUMMARY).select(scans()).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
/** What an update needs to merge the new values with the stored ones. */
export function findQrForUpdate(db, userId, id) {
    return db.selectFrom('qr_codes').select(['id', 'slug', 'type', 'foreground', 'background'])
        .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
/** Everything the public image and scan addresses need. */
export function findQrBySlug(db, slug) {
    return db.selectFrom('qr_codes').select(['id', 'type', 'data', 'payload', 'foreground', 'background', 'logo'])
        .where('slug', '=', slug).executeTakeFirst();
}
export function findScanTarget(db, slug) {
    return db.selectFrom('qr_codes').select(['id', 'user_id', 'type', 'data']).where('slug', '=', slug).executeTakeFirst();
}
export async function insertQr(db, row) {
    const inserted = await db.insertInto('qr_codes').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
}
export async function updateQr(db, userId, id, changes) {
    await db.updateTable('qr_codes').set(changes).where('id', '=', id).where('user_id', '=', userId).execute();
}
/** Deletes a code with its channel entries and statistics; returns its slug, or undefined when the caller has no such code. */
export function deleteQr(db, userId, id) {
    return db.transaction().execute(async (trx) => {
        const deleted = await trx.deleteFrom('qr_codes').where('id', '=', id).where('user_id', '=', userId)
            .returning('slug').executeTakeFirst();
        if (!deleted)
            return undefined;
        await trx.deleteFrom('channel_items').where('item_type', '=', 'qr').where('item_id', '=', id).execute();
        await forgetTargets(trx, 'qr', [id], userId);
        return deleted.slug;
    });
}
//# sourceMappingURL=repo.js.map