import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Short timeouts: Redis sits on the API path (rate limits), so a stalled Redis must turn into a quick
 * error the caller can fall back from, never a request that hangs.
 */
const OPTIONS: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 3000,
  commandTimeout: 1000,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
};

/**
 * Opens a Redis connection and checks it answers, so a wrong REDIS_URL stops the node at start (like a
 * wrong DATABASE_URL) instead of surfacing later. It reconnects on its own afterwards.
 */
export async function connectRedis(url: string, log: Logger, role: string): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) throw new Error('REDIS_URL must start with redis:// or rediss://');
  return openRedis(new Redis(url, OPTIONS), log, role);
}

/** A second connection to the same server (a subscriber cannot run other commands). */
export function duplicateRedis(client: Redis, log: Logger, role: string): Promise<Redis> {
  return openRedis(client.duplicate(), log, role);
}

async function openRedis(client: Redis, log: Logger, role: string): Promise<Redis> {
  watchHealth(client, log, role);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    throw new Error(`Redis is unreachable (${role}): ${err instanceof Error ? err.message : String(err)}`);
  }
  return client;
}

/** Logs a lost connection once and its recovery once, rather than every retry. */
function watchHealth(client: Redis, log: Logger, role: string): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ err, role }, 'Redis connection lost; retrying');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ role }, 'Redis connection restored');
  });
}

/** Closes politely, or at once when Redis is gone (QUIT would wait for a reconnect). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
