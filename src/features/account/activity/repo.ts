import type { Db } from '../../../db/connect.js';
import type { ActivityRow } from '../../../db/types.js';

export async function insertActivity(db: Db, row: Omit<ActivityRow, 'id'>): Promise<void> {
  await db.insertInto('account_activity').values(row).execute();
}

/** A page of an account's activity, newest first (ids grow with time). */
export function listActivity(db: Db, userId: number, limit: number, offset: number): Promise<ActivityRow[]> {
  return db.selectFrom('account_activity').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function countActivity(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('account_activity')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes up to `batch` entries older than `before`; returns how many went. */
export async function pruneActivity(db: Db, before: string, batch: number): Promise<number> {
  const old = db.selectFrom('account_activity').select('id').where('created_at', '<', before).orderBy('id').limit(batch);
  const result = await db.deleteFrom('account_activity').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}
