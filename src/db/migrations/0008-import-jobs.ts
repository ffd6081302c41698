import type { Kysely } from 'kysely';
import { withId, type Builder } from './0001-initial.js';

/**
 * CSV imports of links run as jobs in the process that received the file; their progress lives in this
 * table so that any node behind the load balancer can answer `GET /api/urls/import/{id}`. `errors` is a
 * JSON array of the first failed rows ({row, code, message}), capped by the service.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await (
    withId(db, 'import_jobs')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('total', 'integer')
      .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text') as Builder
  ).execute();
  await db.schema.createIndex('import_jobs_user').on('import_jobs').columns(['user_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
