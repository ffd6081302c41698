// Two builds of the server on PostgreSQL + Redis, measured alternately on the same load (for changes to the
// PostgreSQL path; bench/paired.mjs does this on SQLite): `node bench/pg-paired.mjs OLD_DIR NEW_DIR [links]
// [rounds] [seconds]`, where each directory holds a `dist/` (and package.json, node_modules). Each build gets
// a database of its own with the same links (lib/pg.mjs), is settled under load, then old and new take turns;
// Node CPU and its backends' CPU a request are printed per run and as medians. PG_PAIRED_ENV adds server
// settings as JSON (say `{"CLICK_FLUSH_MS":"600000","CLICK_BATCH_MAX":"10000000"}` to defer the writer).
import { setTimeout as sleep } from 'node:timers/promises';
import { resolve } from 'node:path';
import pg from 'pg';
import { load, pickGenerator } from './lib/generator.mjs';
import { seedPostgres, backendCpu } from './lib/pg.mjs';
import { cpuSeconds, freePort, median, start, stop, waitForPort } from './lib/proc.mjs';

const [oldDir, newDir, links = '1000', rounds = '4', seconds = '6'] = process.argv.slice(2);
if (!oldDir || !newDir) throw new Error('usage: node bench/pg-paired.mjs OLD_DIR NEW_DIR [links] [rounds] [seconds]');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GENERATOR = pickGenerator();
const extra = JSON.parse(process.env.PG_PAIRED_ENV ?? '{}');
const paths = { prefix: 'd', count: Number(links) };

const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
const tag = `pg_paired_${process.pid}`;
const sides = [];
try {
  for (const [label, dir] of [
    ['old', oldDir],
    ['new', newDir],
  ]) {
    const name = `${tag}_${label}`;
    const url = await seedPostgres(admin, name, Number(links));
    const port = await freePort();
    const child = start('node', [resolve(dir, 'dist/server.js')], {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      REDIS_URL,
      REDIS_PREFIX: `${name}:`,
      BASE_URL: 'http://bench.test',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      ...extra,
    });
    sides.push({ label, name, child, port, dbCpu: backendCpu(admin, name), runs: [] });
    await waitForPort(port);
  }
  const drive = (side, duration) => load(GENERATOR, side.port, { host: 'bench.test', connections: 50, paths, duration, amount: duration * 10_000 });
  for (const side of sides) drive(side, 8); // settle: JIT, pool, caches
  for (let i = 0; i < Number(rounds); i++) {
    for (const side of i % 2 ? [...sides].reverse() : sides) {
      const node = cpuSeconds(side.child.pid);
      const db = await side.dbCpu();
      const r = drive(side, Number(seconds));
      await sleep(1500); // the last batch
      const nodeUs = ((cpuSeconds(side.child.pid) - node) * 1e6) / r.requests;
      const dbUs = (((await side.dbCpu()) - db) * 1e6) / r.requests;
      side.runs.push({ nodeUs, dbUs, rps: r.rps });
      console.log(`${side.label} run ${i}: ${Math.round(r.rps)} req/s, Node ${nodeUs.toFixed(1)} + backends ${dbUs.toFixed(1)} µs/req`);
    }
  }
  for (const side of sides) {
    const m = (k) => median(side.runs.map((r) => r[k]));
    console.log(
      `${side.label}: median ${Math.round(m('rps'))} req/s, Node ${m('nodeUs').toFixed(1)} + backends ${m('dbUs').toFixed(1)} = ${(m('nodeUs') + m('dbUs')).toFixed(1)} µs/req`,
    );
  }
} finally {
  for (const side of sides) await stop(side.child);
  for (const side of sides) await admin.query(`DROP DATABASE IF EXISTS "${side.name}" WITH (FORCE)`);
  await admin.end();
}
