import type { Kysely } from 'kysely';

/**
 * Link health (docs/decisions/0010-link-health.md): per checked target (a link, a QR link code) its last
 * status, answer code, when it was checked and since when it has had that status, when it is next due, and
 * the lease a node holds while checking it, so in a cluster one node checks a target at a time. On links,
 * whether they are checked at all and where a link whose destination is broken sends its visitors.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('health_checks')
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('code', 'integer')
    .addColumn('checked_at', 'text')
    .addColumn('since', 'text')
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('health_checks_pk', ['target_kind', 'target_id'])
    .execute();
  await db.schema.createIndex('health_checks_due').on('health_checks').columns(['due_at']).execute();
  await db.schema.createIndex('health_checks_status').on('health_checks').columns(['target_kind', 'status', 'target_id']).execute();
  await db.schema
    .alterTable('links')
    .addColumn('health_check', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('links')
    .addColumn('fallback_url', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
