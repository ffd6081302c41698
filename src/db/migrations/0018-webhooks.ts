import type { Kysely } from 'kysely';
import { withId, type Builder } from './0001-initial.js';

/**
 * Webhooks (docs/decisions/0011-webhooks.md): per account, a receiver URL, the events it hears (JSON array),
 * its signing secret, whether it is active and why not. Each event it hears becomes a delivery row in the
 * transaction of the change (the outbox): the signed body, its state, attempts, the last answer's code,
 * when it is next due, since when it has failed (retries last WEBHOOK_GIVE_UP_MS from then), and the lease a node holds while sending it, so in a cluster one node sends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await (
    withId(db, 'webhooks')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('failing_since', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull()) as Builder
  ).execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').columns(['user_id', 'id']).execute();
  await (
    withId(db, 'webhook_deliveries')
      .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('response_code', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('next_at', 'text')
      .addColumn('retry_from', 'text')
      .addColumn('lease_until', 'text', (c) => c.notNull().defaultTo('')) as Builder
  ).execute();
  await db.schema.createIndex('webhook_deliveries_hook').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
