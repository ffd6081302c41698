import type { Kysely } from 'kysely';

/**
 * The click journal's commits (src/clicks/journal/segments.ts): per journal (one per process), the sequence of
 * the last batch whose transaction committed, so replaying a journal after a kill skips the batches
 * already counted. A row goes once its journal has been replayed and removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('click_journal')
    .addColumn('journal', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
