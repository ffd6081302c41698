import { sql, type Kysely } from 'kysely';

/**
 * Webhooks record who made them: the API key's id (null when made by a dashboard session) and `via`, the key's
 * name then (as the activity log has it), so a webhook outlives its key's revocation with its maker known.
 * Finished deliveries are pruned by their event's time (WEBHOOK_KEEP_DAYS), hence the index on created_at. A
 * delivery keeps its account too, so the sender can take due deliveries in turns per account by index seeks
 * (one per account), never by reading one account's whole backlog.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('key_id', 'integer').execute();
  await db.schema
    .alterTable('webhooks')
    .addColumn('via', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update webhook_deliveries set user_id = (select w.user_id from webhooks w where w.id = webhook_deliveries.webhook_id)`.execute(db);
  await db.schema.createIndex('webhook_deliveries_account').on('webhook_deliveries').columns(['status', 'user_id', 'next_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
