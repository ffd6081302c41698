// CI helper for the PostgreSQL + Redis pass: checks both services answer, and makes or drops the
// run's own database. Uses the project's own drivers, so CI needs no psql or redis-cli.
//   node .ci/services.mjs check    PG_URL REDIS_URL
//   node .ci/services.mjs createdb PG_URL NAME      prints the new database's URL
//   node .ci/services.mjs dropdb   PG_URL NAME
import { Redis } from 'ioredis';
import pg from 'pg';

const [command, pgUrl, arg] = process.argv.slice(2);

async function withPg(run) {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function check(redisUrl) {
  try {
    await withPg((c) => c.query('select 1'));
  } catch (err) {
    throw new Error(`PostgreSQL is unreachable at ${pgUrl} (${err.message}). Start it or set CI_PG_URL.`);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis is unreachable at ${redisUrl} (${err.message}). Start it or set CI_REDIS_URL.`);
  } finally {
    redis.disconnect();
  }
}

const quote = (name) => {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  return `"${name}"`;
};

const commands = {
  check: () => check(arg),
  createdb: async () => {
    await withPg((c) => c.query(`CREATE DATABASE ${quote(arg)}`));
    const url = new URL(pgUrl);
    url.pathname = `/${arg}`;
    console.log(url.toString());
  },
  dropdb: () => withPg((c) => c.query(`DROP DATABASE IF EXISTS ${quote(arg)} WITH (FORCE)`)),
};

const run = commands[command];
if (!run || !pgUrl || !arg) {
  console.error('usage: node .ci/services.mjs check|createdb|dropdb PG_URL REDIS_URL|NAME');
  process.exit(2);
}
run().then(
  () => process.exit(0),
  (err) => {
    console.error(`ci: ${err.message}`);
    process.exit(1);
  },
);
