import type { Db } from '../../db/connect.js';
import type { UserRow } from '../../db/types.js';
import { forgetAccountSeries } from '../../clicks/account-store.js';
import { forgetTargets, targetIdsOf } from '../../clicks/store.js';

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function anyUser(db: Db): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function insertUser(
  db: Db,
  user: { email: string; username: string; password_hash: string; api_key_hash: string; created_at: string },
): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Db,
  id: number,
  changes: Partial<Pick<UserRow, 'email' | 'password_hash'>>,
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export function listUsers(db: Db) {
  return db.selectFrom('users').select(['id', 'email', 'username', 'created_at']).orderBy('id').execute();
}

/** Deletes the account; its rows go by cascade, the statistics of its links and QR codes with them. */
export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const kind of ['link', 'qr'] as const) await forgetTargets(trx, kind, await targetIdsOf(trx, kind, id), null);
    await forgetAccountSeries(trx, id);
    await trx.deleteFrom('users').where('id', '=', id).execute();
  });
}
