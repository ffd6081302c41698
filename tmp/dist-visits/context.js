import cluster from 'node:cluster';
import { pino } from 'pino';
import { connect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { ClickRecorder } from './clicks/recorder.js';
import { scheduleRollUp } from './clicks/retention.js';
import { scheduleVisitPrune } from './clicks/visit-log.js';
import { LocalInvalidation } from './lib/invalidation.js';
import { closeRedis, connectRedis } from './lib/redis.js';
import { RedisInvalidation } from './lib/redis-invalidation.js';
import { WorkerInvalidation } from './lib/worker-invalidation.js';
import { randomToken } from './lib/secrets.js';
export function createLogger(config) {
    return pino({
        name: 'redirectory',
        level: config.LOG_LEVEL,
        redact: {
            paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.apiKey', '*.password_hash'],
            censor: '[redacted]',
        },
    });
}
export async function createContext(config, log = createLogger(config)) {
    const dbHandle = connect(config.DATABASE_URL, log);
    const closers = [() => dbHandle.db.destroy()];
    let shared;
    let secret;
    try {
        await migrateToLatest(dbHandle.db);
        shared = await connectShared(config, log, closers);
        secret = config.SECRET ?? (await loadSecret(dbHandle.db));
    }
    catch (err) {
        for (const closer of closers.reverse())
            await closer(); // a failed start leaves no open handles
        throw err;
    }
    const { redis, invalidation } = shared;
    const ctx = {
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
            for (const closer of closers.reverse())
                await closer();
        },
    };
    ctx.onClose(() => ctx.invalidation.close());
    ctx.onClose(() => ctx.clicks.close()); // runs before the database closes
    ctx.onClose(scheduleRollUp(ctx.db, config.SERIES_HOURLY_DAYS, log));
    ctx.onClose(scheduleVisitPrune(ctx.db, config.VISIT_LOG_DAYS, log));
    return ctx;
}
/**
 * With REDIS_URL, nodes (and workers) share rate limits and cache invalidation through Redis; otherwise
 * invalidation is local, relayed between the workers of a WORKERS=N server by their primary.
 */
async function connectShared(config, log, closers) {
    if (!config.REDIS_URL)
        return { invalidation: cluster.isWorker ? new WorkerInvalidation() : new LocalInvalidation() };
    const redis = await connectRedis(config.REDIS_URL, log, 'commands');
    closers.push(() => closeRedis(redis));
    return { redis, invalidation: await RedisInvalidation.start(redis, config.REDIS_PREFIX, log) };
}
/** One secret per installation, made on first start; insert-if-absent so racing nodes agree. */
async function loadSecret(db) {
    await db.insertInto('settings').values({ key: 'secret', value: randomToken(32) })
        .onConflict((oc) => oc.column('key').doNothing()).execute();
    const row = await db.selectFrom('settings').select('value').where('key', '=', 'secret').executeTakeFirstOrThrow();
    return row.value;
}
//# sourceMappingURL=context.js.map