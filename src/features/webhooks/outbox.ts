import type { Db } from '../../db/connect.js';
import { randomToken } from '../../infra/secrets.js';
import { formatTimestamp } from '../../lib/time.js';
import { insertDeliveries, type NewDelivery } from './delivery-repo.js';
import type { Subscriber } from './repo.js';
import type { WebhookEvent } from './schema.js';

/**
 * The outbox: an event becomes one delivery row per webhook hearing it, written by the caller inside the
 * transaction of the change it tells of, so an event is queued exactly when its change commits.
 */

/** Due times and leases keep milliseconds (a test's backoff is shorter than a second); they still sort as text. */
export const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');

export interface EventBody {
  id: string;
  event: WebhookEvent;
  created: string;
  data: Record<string, unknown>;
}

export function eventBody(event: WebhookEvent, data: Record<string, unknown>, now = Date.now()): EventBody {
  return { id: `evt_${randomToken(16)}`, event, created: formatTimestamp(new Date(now)), data };
}

export const hears = (hook: Pick<Subscriber, 'events'>, event: string) => (JSON.parse(hook.events) as string[]).includes(event);

/** The delivery rows of events (one body each) for the account's webhooks among `hooks` that hear them. */
export function deliveryRows(hooks: Subscriber[], userId: number, bodies: EventBody[], now = Date.now()): NewDelivery[] {
  const rows: NewDelivery[] = [];
  for (const hook of hooks) {
    if (hook.user_id !== userId) continue;
    for (const body of bodies) {
      if (!hears(hook, body.event)) continue;
      const at = stamp(now);
      rows.push({ webhook_id: hook.id, event: body.event, event_id: body.id, body: JSON.stringify(body), created_at: at, next_at: at });
    }
  }
  return rows;
}

/** Queues one event per item of `data` for the webhooks hearing it, in the caller's transaction. */
export async function queueEvents(
  trx: Db,
  hooks: Subscriber[],
  userId: number,
  event: WebhookEvent,
  data: Array<Record<string, unknown>>,
): Promise<void> {
  if (hooks.length === 0 || data.length === 0) return;
  const now = Date.now();
  await insertDeliveries(
    trx,
    deliveryRows(
      hooks,
      userId,
      data.map((d) => eventBody(event, d, now)),
      now,
    ),
  );
}
