import { sql, type Kysely } from 'kysely';

/**
 * One running import per account, enforced by the database: a check in the service let two of six concurrent
 * requests through on PostgreSQL. Running jobs beyond each account's newest (left by a crashed process, or
 * by that race) are marked failed first, so the unique index can be built. `processed` counts the data
 * rows read and checked so far, so a large file shows progress long before its first link is created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('import_jobs')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update import_jobs set status = 'failed', finished_at = updated_at,
      message = 'The import stopped with the server that ran it; the rows counted as done were imported.'
    where status = 'running' and id not in (select max(id) from import_jobs where status = 'running' group by user_id)`.execute(db);
  await db.schema
    .createIndex('import_jobs_one_running')
    .on('import_jobs')
    .column('user_id')
    .unique()
    .where(sql.ref('status'), '=', 'running')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
