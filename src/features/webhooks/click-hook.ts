import type SQLite from 'better-sqlite3';
import type { ClickedTarget, KyselyBatchHook } from '../../clicks/batch-hooks.js';
import type { Db } from '../../db/connect.js';
import { insertDeliveries, type NewDelivery } from './delivery-repo.js';
import { deliveryRows, eventBody } from './outbox.js';
import { allHearing, type Subscriber } from './repo.js';

/**
 * link.clicked: one event per click batch and account, listing its links clicked with their counts, queued in
 * the batch's transaction (src/clicks/batch-hooks.ts) for accounts with a webhook hearing it: so a batch queues
 * at most one delivery per webhook, however many links anonymous visitors reach. Which webhooks hear it is read
 * at most every REFRESH_MS into a cached set, so a batch of an account without one costs a set lookup per link.
 */

/** How stale the cached set may be: a webhook added hears the clicks of batches written from then on. */
export const REFRESH_MS = 5000;

/** The most links one event lists (about 30 KB): the busiest; `more` counts the others. */
export const MAX_CLICKED_LINKS = 1000;

const EVENT = 'link.clicked';

type Clicked = { id: number; clicks: number };

/** One account's event data: `id`/`clicks` repeat its busiest link, as the one-link events before had them. */
function clickedData(links: Clicked[]): Record<string, unknown> {
  const sorted = links.sort((a, b) => b.clicks - a.clicks || a.id - b.id);
  const listed = sorted.slice(0, MAX_CLICKED_LINKS);
  const total = sorted.reduce((n, l) => n + l.clicks, 0);
  return { id: listed[0]!.id, clicks: listed[0]!.clicks, links: listed, total, more: sorted.length - listed.length };
}

/** The events of a batch for the webhooks in `byAccount` (account → its webhooks hearing link.clicked). */
function rowsOf(byAccount: Map<number, Subscriber[]>, targets: ClickedTarget[]): NewDelivery[] {
  const now = Date.now();
  const clicked = new Map<number, Clicked[]>();
  for (const t of targets) {
    if (t.kind !== 'link' || t.clicks <= 0 || !byAccount.has(t.owner)) continue;
    const links = clicked.get(t.owner) ?? [];
    if (links.length === 0) clicked.set(t.owner, links);
    links.push({ id: t.id, clicks: t.clicks });
  }
  const rows: NewDelivery[] = [];
  for (const [owner, links] of clicked) rows.push(...deliveryRows(byAccount.get(owner)!, owner, [eventBody(EVENT, clickedData(links), now)], now));
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
  const insert = sqlite.prepare(
    'INSERT INTO webhook_deliveries (webhook_id, user_id, event, event_id, body, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  let cached = new Map<number, Subscriber[]>();
  let readAt = -Infinity;
  return (targets) => {
    if (Date.now() - readAt >= REFRESH_MS) {
      cached = group(read.all() as Subscriber[]);
      readAt = Date.now();
    }
    if (cached.size === 0) return;
    for (const r of rowsOf(cached, targets)) insert.run(r.webhook_id, r.user_id, r.event, r.event_id, r.body, r.created_at, r.next_at);
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
