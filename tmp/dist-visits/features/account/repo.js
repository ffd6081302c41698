import { forgetAccountSeries } from '../../clicks/account-store.js';
import { forgetTargets, targetIdsOf } from '../../clicks/store.js';
export function findAccountByKeyHash(db, keyHash) {
    return db.selectFrom('users').select(['id', 'api_key_hash']).where('api_key_hash', '=', keyHash).executeTakeFirst();
}
export function findUserById(db, id) {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}
export function findUserByEmail(db, email) {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}
export function findUserByUsername(db, username) {
    return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}
export async function insertUser(db, user) {
    const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
    return row.id;
}
export async function updateUser(db, id, changes) {
    await db.updateTable('users').set(changes).where('id', '=', id).execute();
}
export function listUsers(db) {
    return db.selectFrom('users').select(['id', 'email', 'username', 'created_at']).orderBy('id').execute();
}
/** Deletes the account; its rows go by cascade, the statistics of its links and QR codes with them. */
export async function deleteUser(db, id) {
    await db.transaction().execute(async (trx) => {
        for (const kind of ['link', 'qr'])
            await forgetTargets(trx, kind, await targetIdsOf(trx, kind, id), null);
        await forgetAccountSeries(trx, id);
        await trx.deleteFrom('users').where('id', '=', id).execute();
    });
}
//# sourceMappingURL=repo.js.map