import type { Db } from '../../../db/connect.js';
import { isPostgres } from '../../../db/dialect.js';
import type { ApiKeyRow } from '../../../db/types.js';

export type NewKey = Omit<ApiKeyRow, 'id' | 'last_used_at'>;

/** The name of the full key registration makes, and the one `POST /api/account/key` and `key rotate` replace. */
export const DEFAULT_KEY = 'default';

/** The row of a full (`*`) key named "default". */
export function defaultKeyRow(userId: number, keyHash: string, createdAt: string): NewKey {
  return { user_id: userId, name: DEFAULT_KEY, key_hash: keyHash, scopes: '["*"]', created_at: createdAt, expires_at: null };
}

export async function insertKey(db: Db, key: NewKey): Promise<number> {
  const row = await db.insertInto('api_keys').values(key).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export function findKey(db: Db, userId: number, id: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** An account's keys, oldest first. */
export function listKeys(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** The account's keys that still work at `now` (revoked keys are deleted; expired ones stay until revoked). */
export async function countLiveKeys(db: Db, userId: number, now: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Holds the account's row until the transaction ends, so two key creations of one account count each other's key.
 * PostgreSQL only: SQLite transactions here begin IMMEDIATE, holding the database's write lock already.
 */
export async function lockAccount(trx: Db, userId: number): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function deleteKey(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('api_keys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteKeyNamed(db: Db, userId: number, name: string): Promise<void> {
  await db.deleteFrom('api_keys').where('user_id', '=', userId).where('name', '=', name).execute();
}

export async function touchKey(db: Db, id: number, lastUsedAt: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: lastUsedAt }).where('id', '=', id).execute();
}
