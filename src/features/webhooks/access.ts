import type { Db } from '../../db/connect.js';
import { insertDeliveries } from './delivery-repo.js';
import { deliveryRows, eventBody } from './outbox.js';
import { activeWebhooks, type Subscriber } from './repo.js';
import type { WebhookEvent } from './schema.js';

/**
 * What other features call to tell webhooks of their changes: before the change, `webhooksHearing` reads
 * which of the account's webhooks hear it (none, nearly always: then nothing is queued, and a lone write
 * needs no transaction); inside the change's transaction, `queueWebhookEvents` writes the outbox rows.
 */

export { WEBHOOK_EVENTS, type WebhookEvent } from './schema.js';
export type { DeliveryResult } from './worker.js';
export { CLICK_HOOK_MODULE, kyselyBatchHook } from './click-hook.js';
export { pruneDeliveries } from './prune.js';

/** The account's active webhooks that hear any of `events`. */
export type Hearing = Subscriber[];

export async function webhooksHearing(db: Db, userId: number, events: WebhookEvent[]): Promise<Hearing> {
  const hooks = await activeWebhooks(db, userId);
  return hooks.filter((hook) => events.some((event) => (JSON.parse(hook.events) as string[]).includes(event)));
}

/** One event per item of `data` for each of `hearing` that hears `event`, in the caller's transaction `trx`. */
export async function queueWebhookEvents(
  trx: Db,
  hearing: Hearing,
  userId: number,
  event: WebhookEvent,
  data: Array<Record<string, unknown>>,
): Promise<void> {
  if (hearing.length === 0 || data.length === 0) return;
  const now = Date.now();
  await insertDeliveries(
    trx,
    deliveryRows(
      hearing,
      userId,
      data.map((d) => eventBody(event, d, now)),
      now,
    ),
  );
}
