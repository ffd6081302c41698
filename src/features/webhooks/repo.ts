import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { WebhooksTable } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';

/** The SQL of webhooks; only this feature names the table (deliveries: delivery-repo.ts). */

export type WebhookRow = Selectable<WebhooksTable>;

export async function listWebhooks(db: Db, userId: number, page: Page): Promise<{ total: number; rows: WebhookRow[] }> {
  const count = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(count?.n ?? 0), rows };
}

export function findWebhook(db: Db, userId: number, id: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertWebhook(db: Db, row: Insertable<WebhooksTable>): Promise<number> {
  const inserted = await db.insertInto('webhooks').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function updateWebhook(db: Db, id: number, changes: Updateable<WebhooksTable>): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

/** Removes the webhook; its deliveries go with it (the foreign key cascades, and the caller deletes them first). */
export async function deleteWebhook(db: Db, id: number): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export interface Subscriber {
  id: number;
  user_id: number;
  events: string;
}

/** The account's active webhooks with the events each hears: what an event fans out to. */
export async function activeWebhooks(db: Db, userId: number): Promise<Subscriber[]> {
  const rows = await db.selectFrom('webhooks').select(['id', 'user_id', 'events']).where('user_id', '=', userId).where('active', '=', 1).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), user_id: Number(r.user_id) }));
}

/** Every active webhook hearing `event` (the click writer's cached set). */
export async function allHearing(db: Db, event: string): Promise<Subscriber[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(['id', 'user_id', 'events'])
    .where('active', '=', 1)
    .where('events', 'like', `%"${event}"%`)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), user_id: Number(r.user_id) }));
}

export async function secretsOf(db: Db, ids: number[]): Promise<Map<number, WebhookRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r]));
}
