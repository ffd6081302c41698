import type { Db } from '../../../db/connect.js';
import type { ImportJobRow, ImportJobsTable } from '../../../db/types.js';
import type { Insertable, Updateable } from 'kysely';

export async function insertJob(db: Db, row: Insertable<ImportJobsTable>): Promise<number> {
  return (await db.insertInto('import_jobs').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** The account's job; another account's is not found. */
export function findJob(db: Db, userId: number, id: number): Promise<ImportJobRow | undefined> {
  return db.selectFrom('import_jobs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** The account's running job that has reported progress since `since`, if any. */
export function runningJob(db: Db, userId: number, since: string): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('import_jobs')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .where('updated_at', '>=', since)
    .executeTakeFirst();
}

/** Marks the account's running jobs that have reported nothing since `since` (their process is gone) as ended. */
export async function failLostJobs(db: Db, userId: number, since: string, end: Updateable<ImportJobsTable>): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set(end)
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .where('updated_at', '<', since)
    .execute();
}

export async function updateJob(db: Db, id: number, changes: Updateable<ImportJobsTable>): Promise<void> {
  await db.updateTable('import_jobs').set(changes).where('id', '=', id).execute();
}
