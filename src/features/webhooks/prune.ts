import type { Logger } from 'pino';
import { scheduleHourly } from '../../clicks/retention.js';
import type { AppContext } from '../../context.js';
import { pruneFinished } from './delivery-repo.js';
import { stamp } from './outbox.js';

/** Finished deliveries (delivered or given up on) are kept WEBHOOK_KEEP_DAYS from their event, then deleted. */

const PRUNE_BATCH = 2_000;

/** Deletes the finished deliveries of events older than `days` days, in short batches; returns how many went. */
export async function pruneDeliveries(ctx: Pick<AppContext, 'db'>, days: number, shouldStop = () => false, now = Date.now()): Promise<number> {
  const before = stamp(now - days * 86_400_000);
  let deleted = 0;
  for (let step = PRUNE_BATCH; step === PRUNE_BATCH && !shouldStop();) {
    step = await pruneFinished(ctx.db, before, PRUNE_BATCH);
    deleted += step;
  }
  return deleted;
}

/** Prunes a minute after start and then hourly; the returned function stops it (on shutdown). */
export function scheduleDeliveryPrune(ctx: Pick<AppContext, 'db' | 'config'>, log: Logger): () => Promise<void> {
  return scheduleHourly((shouldStop) => pruneDeliveries(ctx, ctx.config.WEBHOOK_KEEP_DAYS, shouldStop), log, 'pruning webhook deliveries');
}
