import type SQLite from 'better-sqlite3';
import type { ClickedTarget, KyselyBatchHook } from '../../clicks/batch-hooks.js';
import type { Db } from '../../db/connect.js';
import { insertDeliveries, type NewDelivery } from './delivery-repo.js';
import { deliveryRows, eventBody } from './outbox.js';
import { allHearing, type Subscriber } from './repo.js';

/**
 * link.clicked: one event per click batch and link, with its count, queued in the batch's transaction
 * (src/clicks/batch-hooks.ts) for accounts with a webhook hearing it. Which webhooks hear it is read at most
 * every REFRESH_MS into a cached set, so a batch of an account without one costs a set lookup per link.
 */

/** How stale the cached set may be: a webhook added hears the clicks of batches written from then on. */
export const REFRESH_MS = 5000;

const EVENT = 'link.clicked';

/** The events of a batch for the webhooks in `byAccount` (account → its webhooks hearing link.clicked). */
function rowsOf(byAccount: Map<number, Subscriber[]>, targets: ClickedTarget[]): NewDelivery[] {
  const now = Date.now();
  const rows: NewDelivery[] = [];
  for (const t of targets) {
    const hooks = t.kind === 'link' && t.clicks > 0 ? byAccount.get(t.owner) : undefined;
    if (hooks) rows.push(...deliveryRows(hooks, t.owner, [eventBody(EVENT, { id: t.id, clicks: t.clicks }, now)], now));
  }
  return rows;
}

function group(hooks: Subscriber[]): Map<number, Subscriber[]> {
  const byAccount = new Map<number, Subscriber[]>();
  for (const hook of hooks) byAccount.set(hook.user_id, [...(byAccount.get(hook.user_id) ?? []), hook]);
  return byAccount;
}

/** The writer thread's hook (SQLite): statements prepared once on the thread's own connection. */
export function sqliteBatchHook(sqlite: SQLite.Database): (targets: ClickedTarget[]) => void {
  const read = sqlite.prepare(`SELECT id, user_id, events FROM webhooks WHERE active = 1 AND events LIKE '%"${EVENT}"%'`);
  const insert = sqlite.prepare('INSERT INTO webhook_deliveries (webhook_id, event, event_id, body, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?)');
  let cached = new Map<number, Subscriber[]>();
  let readAt = -Infinity;
  return (targets) => {
    if (Date.now() - readAt >= REFRESH_MS) {
      cached = group(read.all() as Subscriber[]);
      readAt = Date.now();
    }
    if (cached.size === 0) return;
    for (const r of rowsOf(cached, targets)) insert.run(r.webhook_id, r.event, r.event_id, r.body, r.created_at, r.next_at);
  };
}

/** The Kysely writers' hook (PostgreSQL): one per writer, its cached set refreshed in a batch's transaction. */
export function kyselyBatchHook(): KyselyBatchHook {
  let cached = new Map<number, Subscriber[]>();
  let readAt = -Infinity;
  return async (trx: Db, targets) => {
    if (Date.now() - readAt >= REFRESH_MS) {
      cached = group(await allHearing(trx, EVENT));
      readAt = Date.now();
    }
    if (cached.size > 0) await insertDeliveries(trx, rowsOf(cached, targets));
  };
}

/** The module the writer thread loads: this one, compiled or under the sources. */
export const CLICK_HOOK_MODULE = new URL(`./click-hook.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;
