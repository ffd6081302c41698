import cluster from 'node:cluster';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { ClickRecorder } from '../clicks/recorder.js';
import { scheduleRollUp } from '../clicks/retention.js';
import { scheduleVisitPrune } from '../clicks/visit-log.js';
import { connect, type Db, type DbHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { LocalInvalidation, type Invalidation } from '../infra/invalidation.js';
import { closeRedis, connectRedis } from '../infra/redis.js';
import { RedisInvalidation } from '../infra/redis-invalidation.js';
import { WorkerInvalidation } from '../infra/worker-invalidation.js';
import { randomToken } from '../infra/secrets.js';
import { Counters } from '../infra/metrics/counters.js';
import { Metrics } from '../infra/metrics/registry.js';
import { insertSettingIfAbsent, readSetting } from '../db/settings.js';
import type { Lifetime } from './lifetime.js';

/**
 * The named steps of a start, in order: openDatabase → migrate → loadSecret → buildServices →
 * startBackgroundWork. Each registers the closer of what it opens on the Lifetime; callers take the steps they
 * need (the cluster primary only migrates, the CLI starts no background work).
 */

/** Step 1: the connection (SQLite file or PostgreSQL pool); nothing is read yet. */
export function openDatabase(config: Config, log: Logger, life: Lifetime): DbHandle {
  const handle = connect(config.DATABASE_URL, log);
  life.onClose(() => handle.db.destroy());
  return handle;
}

/** Step 2: the schema up to date; nodes starting together on PostgreSQL apply each migration once. */
export async function migrate(handle: DbHandle): Promise<void> {
  await migrateToLatest(handle.db);
}

/** Step 3: one secret per installation, made on first start; insert-if-absent so racing nodes agree. SECRET overrides it. */
export async function loadSecret(config: Config, db: Db): Promise<string> {
  if (config.SECRET) return config.SECRET;
  await insertSettingIfAbsent(db, 'secret', randomToken(32));
  return (await readSetting(db, 'secret'))!;
}

export interface Services {
  /** The shared command connection when REDIS_URL is set (rate limits, publishing, readiness). */
  redis?: Redis;
  invalidation: Invalidation;
  /** Batches clicks and scans off the request path; flushed on close. */
  clicks: ClickRecorder;
  /** The request paths' plain counters (always kept: an increment each), read by `metrics` when scraped. */
  counters: Counters;
  /** The Prometheus registry, when METRICS_TOKEN or METRICS_PORT is set. */
  metrics: Metrics | null;
}

/** Step 4: Redis (when configured), the cache-invalidation transport, the click writer and the metrics. */
export async function buildServices(config: Config, log: Logger, handle: DbHandle, secret: string, life: Lifetime): Promise<Services> {
  const redis = await openRedis(config, log, life);
  const invalidation = await openInvalidation(config, redis, log, life);
  let metrics: Metrics | null = null;
  const clicks = startClicks(config, log, handle, secret, life, (ms, visits) => metrics?.observeBatch(ms, visits));
  const counters = new Counters();
  metrics = config.METRICS ? openMetrics(handle, clicks, counters, life) : null;
  return { redis, invalidation, clicks, counters, metrics };
}

function openMetrics(handle: DbHandle, clicks: ClickRecorder, counters: Counters, life: Lifetime): Metrics {
  const metrics = new Metrics({
    counters,
    queueDepth: () => clicks.pending,
    dropped: () => clicks.droppedTotal,
    pool: handle.pool,
    sqliteFile: handle.sqlitePath === ':memory:' ? undefined : handle.sqlitePath,
  });
  life.onClose(() => metrics.close());
  return metrics;
}

/** A wrong REDIS_URL stops the start here, like a wrong DATABASE_URL. */
export async function openRedis(config: Config, log: Logger, life: Lifetime): Promise<Redis | undefined> {
  if (!config.REDIS_URL) return undefined;
  const redis = await connectRedis(config.REDIS_URL, log, 'commands');
  life.onClose(() => closeRedis(redis));
  return redis;
}

/**
 * With REDIS_URL, nodes (and workers) share cache invalidation through Redis; otherwise invalidation is
 * local, relayed between the workers of a WORKERS=N server by their primary.
 */
async function openInvalidation(config: Config, redis: Redis | undefined, log: Logger, life: Lifetime): Promise<Invalidation> {
  const invalidation = redis
    ? await RedisInvalidation.start(redis, config.REDIS_PREFIX, log)
    : cluster.isWorker
      ? new WorkerInvalidation()
      : new LocalInvalidation();
  life.onClose(() => invalidation.close());
  return invalidation;
}

/** The click recorder, and on SQLite its writer thread; closed before the database, so pending clicks are written. */
function startClicks(
  config: Config,
  log: Logger,
  handle: DbHandle,
  secret: string,
  life: Lifetime,
  onBatch: (ms: number, visits: number) => void,
): ClickRecorder {
  const clicks = new ClickRecorder({
    db: handle.db,
    sqlitePath: handle.sqlitePath,
    log,
    secret,
    flushMs: config.CLICK_FLUSH_MS,
    batchMax: config.CLICK_BATCH_MAX,
    geoipMmdb: config.GEOIP_MMDB,
    visitLog: config.VISIT_LOG_DAYS > 0,
    journalDir: config.CLICK_JOURNAL_DIR ?? undefined,
    onBatch,
  });
  life.onClose(() => clicks.close());
  return clicks;
}

/** Step 5, serving nodes only: the hourly roll-up of click buckets and the visit-log prune. */
export function startBackgroundWork(config: Config, db: Db, log: Logger, life: Lifetime): void {
  life.onClose(scheduleRollUp(db, config.SERIES_HOURLY_DAYS, log));
  life.onClose(scheduleVisitPrune(db, config.VISIT_LOG_DAYS, log));
}
