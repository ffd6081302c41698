import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { WebhooksTable } from '../../db/types.js';
import type { Actor } from '../../http/actor.js';
import { literalRefused } from '../../infra/outbound/guarded-lookup.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { recordActivity } from '../account/activity/service.js';
import * as deliveries from './delivery-repo.js';
import { stamp } from './outbox.js';
import * as repo from './repo.js';
import { WEBHOOK_EVENTS, type DeliveryStatus, type DeliveryView, type WebhookAddBody, type WebhookUpdateBody, type WebhookView } from './schema.js';
import { newSecret } from './sign.js';

/** The webhooks API (docs/decisions/0011-webhooks.md): an account's receivers and their deliveries. */

const MAX_WEBHOOKS = 50;

/** http(s) only; a literal private, loopback (unless allowed for tests), link-local or metadata address is refused at once. */
function checkUrl(ctx: AppContext, value: string): string {
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw fail('webhook_url_invalid');
  if (url.username || url.password || literalRefused(url.hostname, ctx.config.OUTBOUND_ALLOW_LOOPBACK)) throw fail('webhook_url_invalid');
  return url.href;
}

function checkEvents(events: string[]): string[] {
  const unique = [...new Set(events)];
  if (unique.length === 0 || unique.some((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e))) {
    throw fail('webhook_events_invalid', WEBHOOK_EVENTS.join(', '));
  }
  return WEBHOOK_EVENTS.filter((e) => unique.includes(e));
}

const view = (row: repo.WebhookRow): WebhookView => ({
  id: Number(row.id),
  url: row.url,
  events: JSON.parse(row.events) as string[],
  active: Number(row.active) === 1,
  reason: row.reason,
  date: row.created_at,
  keyid: row.key_id === null ? null : Number(row.key_id),
  via: row.via,
});

/** Who makes a change: the activity log's actor, and the API key's id (none for a dashboard session). */
export interface Maker {
  actor: Actor;
  keyId: number | null;
}

export async function listWebhooks(ctx: AppContext, userId: number, query: { limit?: number; page?: number }): Promise<ListData<WebhookView>> {
  const page = toPage(query);
  const { total, rows } = await repo.listWebhooks(ctx.db, userId, page);
  return listData(page, total, rows.map(view));
}

export async function addWebhook(ctx: AppContext, userId: number, body: WebhookAddBody, maker: Maker) {
  const url = checkUrl(ctx, body.url);
  const events = checkEvents(body.events);
  const { total } = await repo.listWebhooks(ctx.db, userId, toPage({ limit: 1 }));
  if (total >= MAX_WEBHOOKS) throw fail('invalid_field', `An account has at most ${MAX_WEBHOOKS} webhooks.`);
  const secret = newSecret();
  const id = await repo.insertWebhook(ctx.db, {
    user_id: userId,
    url,
    events: JSON.stringify(events),
    secret,
    failing_since: null,
    created_at: nowTimestamp(),
    key_id: maker.keyId,
    via: maker.actor.via.slice(0, 64),
  });
  await recordActivity(ctx, userId, 'webhook_added', maker.actor);
  return { error: 0 as const, id, url, events, secret, keyid: maker.keyId, via: maker.actor.via.slice(0, 64) };
}

async function owned(ctx: AppContext, userId: number, id: number): Promise<repo.WebhookRow> {
  const row = await repo.findWebhook(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Webhook');
  return row;
}

export async function updateWebhook(ctx: AppContext, userId: number, id: number, body: WebhookUpdateBody, actor: Actor): Promise<void> {
  await owned(ctx, userId, id);
  if (body.url === undefined && body.events === undefined && body.active === undefined) throw fail('nothing_to_update', 'url, events or active');
  const changes: Updateable<WebhooksTable> = {};
  if (body.url !== undefined) changes.url = checkUrl(ctx, body.url);
  if (body.events !== undefined) changes.events = JSON.stringify(checkEvents(body.events));
  if (body.active === true) Object.assign(changes, { active: 1, reason: '', failing_since: null });
  if (body.active === false) Object.assign(changes, { active: 0, reason: `Disabled on ${nowTimestamp()} by its owner` });
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateWebhook(trx, id, changes);
    if (body.active === false) await deliveries.failPending(trx, id);
  });
  await recordActivity(ctx, userId, 'webhook_updated', actor);
}

/** The webhook goes with its deliveries, pending ones included: none of them is sent after this answer. */
export async function deleteWebhook(ctx: AppContext, userId: number, id: number, actor: Actor): Promise<void> {
  await owned(ctx, userId, id);
  await ctx.db.transaction().execute(async (trx) => {
    await deliveries.deleteDeliveriesOf(trx, id);
    await repo.deleteWebhook(trx, id);
  });
  await recordActivity(ctx, userId, 'webhook_deleted', actor);
}

const deliveryView = (row: deliveries.DeliveryRow): DeliveryView => ({
  id: Number(row.id),
  event: row.event,
  eventId: row.event_id,
  status: row.status as DeliveryStatus,
  attempts: Number(row.attempts),
  responseCode: row.response_code === null ? null : Number(row.response_code),
  date: row.created_at.slice(0, 19),
  next: row.next_at === null ? null : row.next_at.slice(0, 19),
});

export async function listDeliveries(
  ctx: AppContext,
  userId: number,
  id: number,
  query: { limit?: number; page?: number },
): Promise<ListData<DeliveryView>> {
  await owned(ctx, userId, id);
  const page = toPage(query);
  const { total, rows } = await deliveries.listDeliveries(ctx.db, id, page);
  return listData(page, total, rows.map(deliveryView));
}

export async function resendDelivery(ctx: AppContext, userId: number, id: number, delivery: number): Promise<void> {
  await owned(ctx, userId, id);
  if (!(await deliveries.requeue(ctx.db, id, delivery, stamp(Date.now())))) throw fail('not_found', 'Delivery');
}
