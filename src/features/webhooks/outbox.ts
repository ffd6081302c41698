import { randomBytes } from 'node:crypto';
import type { NewDelivery } from './delivery-repo.js';
import { formatTimestamp } from '../../lib/time.js';
import type { Subscriber } from './repo.js';
import type { WebhookEvent } from './schema.js';

/**
 * The outbox's rows: an event becomes one delivery row per webhook hearing it, written inside the
 * transaction of the change it tells of, so an event is queued exactly when its change commits. Pure, and
 * light enough for the click writer thread (click-hook.ts) to load.
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
  return { id: `evt_${randomBytes(16).toString('base64url')}`, event, created: formatTimestamp(new Date(now)), data };
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
      rows.push({
        webhook_id: hook.id,
        user_id: userId,
        event: body.event,
        event_id: body.id,
        body: JSON.stringify(body),
        created_at: at,
        next_at: at,
      });
    }
  }
  return rows;
}
