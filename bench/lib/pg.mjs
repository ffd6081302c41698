// The redirect on PostgreSQL + Redis (`pg_cpu_ratio`, `pg_cpu_growth`): one server on 1k direct links and
// one on the large count, each on a database made for the run from BENCH_PG_URL and dropped after it, with
// BENCH_REDIS_URL. BENCH_PG=off leaves the scenario out (its keys read `off`); otherwise a service that
// cannot be reached fails the run, so CI never skips it silently.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { load } from './generator.mjs';
import { stop } from './proc.mjs';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const OFF = process.env.BENCH_PG === 'off';
const TICKS_PER_SECOND = 100; // Linux USER_HZ
const NOW = new Date().toISOString().slice(0, 19).replace('T', ' ');
// A fresh server on PostgreSQL serves a few hundred requests a second at about 1 ms of CPU each for its
// first 2 to 5 s under load (cold JIT of Kysely and pg, the pool's connections opening, the link cache
// filling through them), then settles: compare()'s 1 s warm-up is too short for it (docs/performance.md).
const SETTLE_LOAD = { quick: { duration: 4, amount: 20_000 }, full: { duration: 8, amount: 80_000 } };

const unreachable = (what, url, variable, err) =>
  new Error(`bench: ${what} is unreachable at ${url} (${err.message}). Start it, set ${variable}, or set BENCH_PG=off to leave PostgreSQL out.`);

/** Run first: an unreachable service fails the run before the SQLite scenarios' minutes, not after them. */
export async function checkPostgres() {
  if (OFF) return;
  try {
    await reach();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

async function reach() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw unreachable('PostgreSQL', PG_URL, 'BENCH_PG_URL', err);
  } finally {
    await client.end().catch(() => {});
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw unreachable('Redis', REDIS_URL, 'BENCH_REDIS_URL', err);
  } finally {
    redis.disconnect();
  }
}

const databaseUrl = (name) => Object.assign(new URL(PG_URL), { pathname: `/${name}` }).toString();

/** A fresh database with the bench user (made through the build, as bench/seed.mjs does) and `links` direct links d0…. */
export async function seedPostgres(admin, name, links) {
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = databaseUrl(name);
  const { loadConfig } = await import('../../dist/config.js');
  const { createContext } = await import('../../dist/context.js');
  const { createUser } = await import('../../dist/features/account/service.js');
  const { pino } = await import('pino');
  const ctx = await createContext(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
  const user = await createUser(ctx, { email: 'bench@example.com', username: 'bench' });
  await ctx.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // One statement for the lot: a million single-row inserts would take minutes.
  await client.query(
    `insert into links (user_id, alias, long_url, created_at, updated_at)
     select $1, 'd' || i, 'https://example.com/articles/' || i || '?ref=short', $2, $2 from generate_series(0, $3::int - 1) i`,
    [user.id, NOW, links],
  );
  // Hint bits and statistics in place, so the measured runs do not pay for the bulk insert's aftermath.
  await client.query('vacuum analyze links');
  await client.end();
  return url;
}

const ticks = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return undefined; // a backend that ended: its last reading stands
  }
};

/**
 * CPU seconds so far of the database's client backends (the server's pool and its click writer). The pool
 * opens and closes connections, so every backend seen is remembered with its last reading; one that ends
 * between readings loses its last moments, a new one counts whole.
 */
export function backendCpu(admin, name) {
  const seen = new Map();
  return async () => {
    const { rows } = await admin.query(`select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend'`, [name]);
    for (const { pid } of rows) seen.set(pid, ticks(pid) ?? seen.get(pid) ?? 0);
    return [...seen.values()].reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
  };
}

export const pgNames = (big) => ({ direct: 'PostgreSQL, 1k links', grown: `PostgreSQL, ${big / 1000}k links` });

/** Both PostgreSQL scenarios against the run's baseline, through run.mjs's own server() and compare(). */
export async function benchPostgres({ quick, big, generator, host, baseline, server, compare }) {
  if (OFF) return undefined;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const tag = `redirectory_bench_${process.pid}_${Date.now()}`;
  const made = [];
  const servers = [];
  const start = async (suffix, links) => {
    const name = `${tag}_${suffix}`;
    made.push(name);
    const url = await seedPostgres(admin, name, links);
    const target = await server({}, { DATABASE_URL: url, REDIS_URL, REDIS_PREFIX: `${name}:` });
    servers.push(target);
    const paths = { prefix: 'd', count: links };
    load(generator, target.port, { host, connections: 50, paths, ...SETTLE_LOAD[quick ? 'quick' : 'full'] });
    return Object.assign(target, { dbCpu: backendCpu(admin, name), paths });
  };
  try {
    const names = pgNames(big);
    const small = await start('small', 1000);
    const direct = await compare(names.direct, baseline, small, { paths: small.paths });
    const large = await start('big', big);
    const grown = await compare(names.grown, baseline, large, { paths: large.paths });
    return { direct, grown };
  } finally {
    for (const target of servers) await stop(target.child);
    for (const name of made) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/** CPU ratio with the database backends' CPU counted (`db`) or the Node server's alone. */
const ratio = (row, db) => row.baseCpuUs / (row.cpuUs + (db ? row.dbUs : 0));

/** The `bench:` keys: with the backends (what a redirect costs the machine), and the Node server's alone. */
export function pgKeys(result) {
  if (!result) return { pg_cpu_ratio: 'off', pg_cpu_growth: 'off', pg_node_cpu_ratio: 'off', pg_node_cpu_growth: 'off' };
  const { direct, grown } = result;
  return {
    pg_cpu_ratio: ratio(direct, true).toFixed(2),
    pg_cpu_growth: (ratio(grown, true) / ratio(direct, true)).toFixed(2),
    pg_node_cpu_ratio: ratio(direct, false).toFixed(2),
    pg_node_cpu_growth: (ratio(grown, false) / ratio(direct, false)).toFixed(2),
  };
}

/** The human line: the backends' own µs beside the table's (Node-only) CPU columns. */
export function pgLine(result) {
  if (!result) return 'PostgreSQL + Redis: off (BENCH_PG=off)';
  const part = (row) =>
    `${row.scenario}: Node ${row.cpuUs.toFixed(1)} + backends ${row.dbUs.toFixed(1)} µs/req, CPU ratio ${ratio(row, true).toFixed(2)} (Node alone ${ratio(row, false).toFixed(2)})`;
  return `PostgreSQL + Redis: ${part(result.direct)}; ${part(result.grown)}`;
}
