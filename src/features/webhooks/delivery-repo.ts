import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { isPostgres } from '../../db/dialect.js';
import type { WebhookDeliveriesTable } from '../../db/types.js';
import type { Page } from '../../lib/pagination.js';

/** The SQL of webhook_deliveries, the outbox; only this feature names the table. */

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Insertable<WebhookDeliveriesTable>;

export async function insertDeliveries(db: Db, rows: NewDelivery[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

export async function listDeliveries(db: Db, webhookId: number, page: Page): Promise<{ total: number; rows: DeliveryRow[] }> {
  const count = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(count?.n ?? 0), rows };
}

/** Queues the delivery again now, its attempts counted afresh; false when the webhook has no such delivery. */
export async function requeue(db: Db, webhookId: number, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, response_code: null, next_at: now, retry_from: null, lease_until: '' })
    .where('id', '=', id)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether any delivery is due: a read, so an idle node's poll never takes SQLite's write lock. */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_at', '<=', now)
    .where('lease_until', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export type Claimed = Pick<DeliveryRow, 'id' | 'webhook_id' | 'user_id' | 'event' | 'event_id' | 'body' | 'attempts' | 'retry_from'>;

/** How many more deliveries of an account this node may lease now (its sends still under way count against it). */
export type RoomOf = (userId: number) => number;

/** The accounts with pending deliveries: a skip scan of the (status, user_id, …) index, one seek per account. */
async function pendingAccounts(db: Db): Promise<number[]> {
  const { rows } = await sql<{ u: number }>`with recursive acc(u) as (
      select (select user_id from webhook_deliveries where status = 'pending' order by user_id limit 1)
      union all
      select (select user_id from webhook_deliveries where status = 'pending' and user_id > acc.u order by user_id limit 1)
      from acc where acc.u is not null
    ) select u from acc where u is not null`.execute(db);
  return rows.map((r) => Number(r.u));
}

/** An account's oldest `limit` due deliveries not leased, by the index (never its whole backlog). */
function dueOf(db: Db, userId: number, now: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'next_at'])
    .where('status', '=', 'pending')
    .where('user_id', '=', userId)
    .where('next_at', '<=', now)
    .where('lease_until', '<=', now)
    .orderBy('next_at') // no tie-break by id: the index gives this order, so the scan stops at `limit`
    .limit(limit)
    .execute();
}

/** Up to `limit` ids in turns: every account's oldest due delivery (the oldest first), then each one's second, … */
async function inTurns(db: Db, now: string, limit: number, roomOf: RoomOf): Promise<number[]> {
  const accounts = (await pendingAccounts(db)).filter((u) => roomOf(u) > 0);
  // Past `limit` accounts a round takes each one's oldest only, so the rows read stay about one per account.
  const each = accounts.length <= limit ? limit : 1;
  const queues = await Promise.all(accounts.map((u) => dueOf(db, u, now, Math.min(each, roomOf(u)))));
  const turns = queues.flatMap((queue) => queue.map((row, turn) => ({ id: Number(row.id), at: row.next_at ?? '', turn })));
  turns.sort((x, y) => x.turn - y.turn || x.at.localeCompare(y.at) || x.id - y.id);
  return turns.slice(0, limit).map((t) => t.id);
}

/**
 * Leases up to `limit` due deliveries to this node until `leaseUntil`, taken in turns per account, so one
 * account's backlog never delays another's first try. PostgreSQL skips rows another node has locked meanwhile
 * (`FOR UPDATE SKIP LOCKED`); SQLite serialises writers; either way the repeated `lease_until` test keeps a row
 * leased meanwhile out, and each due delivery goes to one node.
 */
export async function claimDue(db: Db, now: string, leaseUntil: string, limit: number, roomOf: RoomOf = () => limit): Promise<Claimed[]> {
  const ids = await inTurns(db, now, limit, roomOf);
  if (ids.length === 0) return [];
  const lock = isPostgres(db) ? sql` for update skip locked` : sql``;
  const { rows } = await sql<Claimed>`update webhook_deliveries set lease_until = ${leaseUntil}
    where lease_until <= ${now} and status = 'pending' and id in (
      select id from webhook_deliveries where id in (${sql.join(ids)})${lock})
    returning id, webhook_id, user_id, event, event_id, body, attempts, retry_from`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), webhook_id: Number(r.webhook_id), user_id: Number(r.user_id), attempts: Number(r.attempts) }));
}

export interface Attempt {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  code: number | null;
  next: string | null;
  retryFrom?: string | null;
}

/** Records an attempt and releases the lease. */
export async function recordAttempt(db: Db, id: number, attempt: Attempt): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: attempt.status,
      attempts: attempt.attempts,
      response_code: attempt.code,
      next_at: attempt.next,
      lease_until: '',
      ...(attempt.retryFrom === undefined ? {} : { retry_from: attempt.retryFrom }),
    })
    .where('id', '=', id)
    .execute();
}

/** The webhook's pending deliveries end as failed (it was disabled). */
export async function failPending(db: Db, webhookId: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_at: null })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}

export async function deleteDeliveriesOf(db: Db, webhookId: number): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
}

/** Deletes up to `batch` delivered or failed deliveries of events before `before`; pending ones stay. Returns how many went. */
export async function pruneFinished(db: Db, before: string, batch: number): Promise<number> {
  const old = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('created_at', '<', before)
    .where('status', 'in', ['delivered', 'failed'])
    .orderBy('id')
    .limit(batch);
  const result = await db.deleteFrom('webhook_deliveries').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}
