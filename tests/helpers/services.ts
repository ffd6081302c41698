import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/** Where the cluster test finds PostgreSQL and Redis when the run itself is on SQLite. */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/** A private PostgreSQL schema: the connection string selects it through search_path. */
export interface TestSchema {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A unique name for one test server's schema and Redis prefix. */
export function uniqueName(): string {
  return `t_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function withPg<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates a fresh schema in the database of `baseUrl`, so each test server migrates from nothing. */
export async function createTestSchema(baseUrl: string, name = uniqueName()): Promise<TestSchema> {
  await withPg(baseUrl, (c) => c.query(`CREATE SCHEMA "${name}"`));
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return {
    name,
    url: url.toString(),
    drop: () => withPg(baseUrl, (c) => c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`)).then(() => undefined),
  };
}

/** Deletes every key under a prefix (rate-limit windows expire anyway; this keeps Redis tidy). */
export async function deleteRedisPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Fails with a message naming the service and the variable to fix, rather than letting tests skip. */
export async function assertServicesReachable(pgUrl: string | undefined, redisUrl: string | undefined): Promise<void> {
  if (pgUrl) {
    try {
      await withPg(pgUrl, (c) => c.query('select 1'));
    } catch (err) {
      throw new Error(`PostgreSQL is unreachable at ${redact(pgUrl)}: ${(err as Error).message}`);
    }
  }
  if (!redisUrl) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis is unreachable at ${redact(redisUrl)}: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
