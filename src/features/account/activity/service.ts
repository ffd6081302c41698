import type { Logger } from 'pino';
import { scheduleHourly } from '../../../clicks/retention.js';
import type { AppContext } from '../../../context.js';
import type { Actor } from '../../../http/actor.js';
import { formatTimestamp, nowTimestamp } from '../../../lib/time.js';
import * as repo from './repo.js';
import { ACTIVITY_PAGE, type ActivityEvent } from './schema.js';

export interface ActivityEntry {
  date: string;
  event: string;
  via: string;
  ip: string;
  agent: string;
}

/**
 * Adds an entry to the account's activity log. Never throws: a log that cannot be written is logged, and the
 * request that caused it still succeeds. Awaited by callers so that the entry is there once they answer.
 */
export async function recordActivity(ctx: AppContext, userId: number, event: ActivityEvent, actor: Actor): Promise<void> {
  try {
    await repo.insertActivity(ctx.db, {
      user_id: userId,
      event,
      via: actor.via.slice(0, 64),
      ip: actor.ip,
      agent: actor.agent,
      created_at: nowTimestamp(),
    });
  } catch (err) {
    ctx.log.error({ err, userId, event }, 'could not record account activity');
  }
}

/** The entries of an e-mail and/or password change (only what really changed). */
export async function recordAccountUpdate(
  ctx: AppContext,
  userId: number,
  changed: { email: boolean; password: boolean },
  actor: Actor,
): Promise<void> {
  if (changed.email) await recordActivity(ctx, userId, 'email_changed', actor);
  if (changed.password) await recordActivity(ctx, userId, 'password_changed', actor);
}

/** A page of the account's activity, newest first, with the number of entries kept. */
export async function listActivity(ctx: AppContext, userId: number, query: { limit?: number; page?: number }) {
  const limit = Math.min(Math.max(query.limit ?? ACTIVITY_PAGE.default, 1), ACTIVITY_PAGE.max);
  const page = Math.min(Math.max(query.page ?? 1, 1), 1_000_000);
  const [rows, result] = await Promise.all([repo.listActivity(ctx.db, userId, limit, (page - 1) * limit), repo.countActivity(ctx.db, userId)]);
  const activity: ActivityEntry[] = rows.map((r) => ({ date: r.created_at, event: r.event, via: r.via, ip: r.ip, agent: r.agent }));
  return { result, activity };
}

const PRUNE_BATCH = 2_000;

/** Deletes the entries older than `days` days, in short batches; returns how many went. */
export async function pruneActivity(ctx: Pick<AppContext, 'db'>, days: number, shouldStop = () => false, now = Date.now()): Promise<number> {
  const before = formatTimestamp(new Date(now - days * 86_400_000));
  let deleted = 0;
  for (let step = PRUNE_BATCH; step === PRUNE_BATCH && !shouldStop();) {
    step = await repo.pruneActivity(ctx.db, before, PRUNE_BATCH);
    deleted += step;
  }
  return deleted;
}

/** Prunes the log a minute after start and then hourly; the returned function stops it (on shutdown). */
export function scheduleActivityPrune(ctx: Pick<AppContext, 'db' | 'config'>, log: Logger): () => Promise<void> {
  return scheduleHourly((shouldStop) => pruneActivity(ctx, ctx.config.ACTIVITY_LOG_DAYS, shouldStop), log, 'pruning the account activity log');
}
