// The PostgreSQL click writer harness (bench/writer.mjs is SQLite's thread): Node CPU and its backend's CPU
// per batch of kyselyBatchWriter, fed batches shaped like the benchmark's wrk traffic (N visits over LINKS
// links, a second apart) on a database of its own (BENCH_PG_URL's server), dropped after. Compare builds by
// running each in turn:  node bench/pg-writer.mjs [BUILD_DIR=.] [LINKS=1000]   (env N, WARM, TIMED)
import { join, resolve } from 'node:path';
import pg from 'pg';
import { IPS, REFERERS, USER_AGENTS } from './lib/browser.mjs';
import { backendCpu } from './lib/pg.mjs';

const [dir = '.', links = '1000'] = process.argv.slice(2);
const build = resolve(dir);
const LINKS = Number(links);
const {
  N = 17_000,
  WARM = 10,
  TIMED = 20,
} = Object.fromEntries(['N', 'WARM', 'TIMED'].filter((k) => process.env[k]).map((k) => [k, Number(process.env[k])]));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const name = `pg_writer_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE DATABASE "${name}"`);
const url = Object.assign(new URL(PG_URL), { pathname: `/${name}` }).toString();
const { connect } = await import(join(build, 'dist/db/connect.js'));
const { migrateToLatest } = await import(join(build, 'dist/db/migrate.js'));
const { kyselyBatchWriter } = await import(join(build, 'dist/clicks/batch-writers.js'));
const { clickAggregator } = await import(join(build, 'dist/clicks/derive.js'));
const { VisitBuffer } = await import(join(build, 'dist/clicks/visit-columns.js'));
const handle = connect(url);
await migrateToLatest(handle.db);
const writer = kyselyBatchWriter(handle.db, clickAggregator('x'.repeat(32), { visitLog: true }));
const dbCpu = backendCpu(admin, name);

let state = 12345; // a fixed sequence, the same for every build
const pick = (n) => ((state = (state * 1103515245 + 12345) >>> 0) >>> 8) % n;
const start = Date.now();
function batch(b) {
  const buffer = new VisitBuffer();
  for (let i = 0; i < N; i++) {
    const visit = { ip: IPS[pick(IPS.length)], userAgent: USER_AGENTS[pick(USER_AGENTS.length)], referer: REFERERS[pick(REFERERS.length)] };
    buffer.append('link', 1 + pick(LINKS), 1, visit, start + b * 1000 + (i * 1000) / N, 'default');
  }
  return buffer.seal();
}

const node = [];
const db = [];
try {
  for (let b = 0; b < WARM + TIMED; b++) {
    const data = batch(b);
    const before = process.cpuUsage();
    const dbBefore = await dbCpu();
    await writer.write(data);
    const used = process.cpuUsage(before);
    const dbUsed = (await dbCpu()) - dbBefore;
    if (b >= WARM) {
      node.push((used.user + used.system) / N);
      db.push((dbUsed * 1e6) / N);
    }
  }
} finally {
  await writer.close();
  await handle.db.destroy();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
// The backends' clock ticks every 10 ms: their figure is the mean of all timed batches.
const sorted = [...node].sort((a, b) => a - b);
const mean = (xs) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);
console.log(
  `pg writer ${build} links=${LINKS} N=${N}: µs a visit, Node p10 ${sorted[Math.floor(sorted.length / 10)].toFixed(2)} median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}; backend mean ${mean(db)}`,
);
