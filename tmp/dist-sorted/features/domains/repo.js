export function listDomains(db, userId, page) {
    return db.selectFrom('domains').selectAll().where('user_id', '=', userId)
        .orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}
export async function countDomains(db, userId) {
    const row = await db.selectFrom('domains').select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
}
export function findDomain(db, userId, id) {
    return db.selectFrom('domains').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
/** Any account's domain with that host: hosts are unique across the installation. */
export function findDomainByHost(db, host) {
    return db.selectFrom('domains').selectAll().where('host', '=', host).executeTakeFirst();
}
export async function insertDomain(db, row) {
    const inserted = await db.insertInto('domains').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
}
export async function updateDomain(db, id, changes) {
    await db.updateTable('domains').set(changes).where('id', '=', id).execute();
}
/** Deletes the domain only while no link uses it, in one statement; false when links use it. */
export async function deleteUnusedDomain(db, id) {
    const result = await db.deleteFrom('domains').where('id', '=', id)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('links').select('links.id').where('links.domain_id', '=', id))))
        .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
}
export async function countLinksOfDomain(db, domainId) {
    const row = await db.selectFrom('links').select((eb) => eb.fn.countAll().as('n'))
        .where('domain_id', '=', domainId).executeTakeFirstOrThrow();
    return Number(row.n);
}
//# sourceMappingURL=repo.js.map