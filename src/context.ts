import cluster from 'node:cluster';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { connect, type Db, type DbHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { insertSettingIfAbsent, readSetting } from './db/settings.js';
import { ClickRecorder } from './clicks/recorder.js';
import { scheduleRollUp } from './clicks/retention.js';
import { scheduleVisitPrune } from './clicks/visit-log.js';
import { createLog } from './lib/log.js';
import { LocalInvalidation, type Invalidation } from './lib/invalidation.js';
import { closeRedis, connectRedis } from './lib/redis.js';
import { RedisInvalidation } from './lib/redis-invalidation.js';
import { WorkerInvalidation } from './lib/worker-invalidation.js';
import { randomToken } from './lib/secrets.js';

/** Everything a service needs, built once per process and shared by the HTTP app and the CLI. */
export interface AppContext {
  config: Config;
  db: Db;
  dbHandle: DbHandle;
  /** Signs cookies and salts visitor hashes; shared by all nodes through the settings table. */
  secret: string;
  invalidation: Invalidation;
  /** The shared command connection when REDIS_URL is set (rate limits, publishing, readiness). */
  redis?: Redis;
  /** Batches clicks and scans off the request path; flushed on close. */
  clicks: ClickRecorder;
  log: Logger;
  /** Closers run in reverse order of registration on shutdown. */
  onClose(closer: () => Promise<void> | void): void;
  close(): Promise<void>;
}

/** The server's log on stdout (LOG_FORMAT); the one-time setup address stands alone in pretty output. */
export function createLogger(config: Config): Logger {
  return createLog({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, alone: ['setupUrl'] });
}

export async function createContext(config: Config, log: Logger = createLogger(config)): Promise<AppContext> {
  const dbHandle = connect(config.DATABASE_URL, log);
  const closers: Array<() => Promise<void> | void> = [() => dbHandle.db.destroy()];
  let shared: Shared;
  let secret: string;
  try {
    await migrateToLatest(dbHandle.db);
    shared = await connectShared(config, log, closers);
    secret = config.SECRET ?? (await loadSecret(dbHandle.db));
  } catch (err) {
    for (const closer of closers.reverse()) await closer(); // a failed start leaves no open handles
    throw err;
  }
  const { redis, invalidation } = shared;
  const ctx: AppContext = {
    config,
    db: dbHandle.db,
    dbHandle,
    secret,
    invalidation,
    redis,
    clicks: new ClickRecorder({
      db: dbHandle.db, sqlitePath: dbHandle.sqlitePath, log, secret, flushMs: config.CLICK_FLUSH_MS, batchMax: config.CLICK_BATCH_MAX, geoipMmdb: config.GEOIP_MMDB,
      visitLog: config.VISIT_LOG_DAYS > 0,
    }),
    log,
    onClose: (closer) => void closers.push(closer),
    close: async () => {
      for (const closer of closers.reverse()) await closer();
    },
  };
  ctx.onClose(() => ctx.invalidation.close());
  ctx.onClose(() => ctx.clicks.close()); // runs before the database closes
  ctx.onClose(scheduleRollUp(ctx.db, config.SERIES_HOURLY_DAYS, log));
  ctx.onClose(scheduleVisitPrune(ctx.db, config.VISIT_LOG_DAYS, log));
  return ctx;
}

interface Shared {
  redis?: Redis;
  invalidation: Invalidation;
}

/**
 * With REDIS_URL, nodes (and workers) share rate limits and cache invalidation through Redis; otherwise
 * invalidation is local, relayed between the workers of a WORKERS=N server by their primary.
 */
async function connectShared(config: Config, log: Logger, closers: Array<() => Promise<void> | void>): Promise<Shared> {
  if (!config.REDIS_URL) return { invalidation: cluster.isWorker ? new WorkerInvalidation() : new LocalInvalidation() };
  const redis = await connectRedis(config.REDIS_URL, log, 'commands');
  closers.push(() => closeRedis(redis));
  return { redis, invalidation: await RedisInvalidation.start(redis, config.REDIS_PREFIX, log) };
}

/** One secret per installation, made on first start; insert-if-absent so racing nodes agree. */
async function loadSecret(db: Db): Promise<string> {
  await insertSettingIfAbsent(db, 'secret', randomToken(32));
  return (await readSetting(db, 'secret'))!;
}
