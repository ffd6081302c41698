import type { Kysely } from 'kysely';

/**
 * A link check has a time budget per round (src/features/health/checker.ts): a link with more destinations than
 * fit in it is checked in parts, and `resume_at` is the index of the destination the next round starts from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('health_checks')
    .addColumn('resume_at', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
