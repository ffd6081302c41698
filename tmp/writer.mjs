// Writer harness: aggregate + SQLite writer as the writer thread runs them, on a fresh database.
// usage: node writer.mjs DIST LINKS [pragma...]
import { rmSync } from 'node:fs';
const [dist, linksArg, ...pragmas] = process.argv.slice(2);
const LINKS = Number(linksArg);
const { connect, openSqlite } = await import(`${dist}/db/connect.js`);
const { migrateToLatest } = await import(`${dist}/db/migrate.js`);
const { sqliteClickWriter } = await import(`${dist}/clicks/batch-writers.js`);
const { clickAggregator } = await import(`${dist}/clicks/derive.js`);
const { FIELDS } = await import(`${dist}/clicks/visit-columns.js`);
const path = `/tmp/harness-${process.pid}.db`;
const h = connect(`sqlite:${path}`);
await migrateToLatest(h.db);
await h.db.destroy();
const sqlite = openSqlite(path);
for (const p of pragmas) sqlite.pragma(p);
if (process.env.DROP_TRIGGER) sqlite.exec("DROP TRIGGER click_summaries_close_hour");
const write = sqliteClickWriter(sqlite);
const aggregate = clickAggregator('secret');
const BATCH = 20_000, VISITORS = 2000;
const agents = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'];
const refs = ['', 'https://www.google.com/', 'https://t.co/x'];
let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const hour = Math.floor(Date.now() / 3600000);
function batch() {
  const strings = [], index = new Map();
  const intern = (s) => { let a = index.get(s); if (a === undefined) index.set(s, (a = strings.push(s) - 1)); return a; };
  const kinds = new Uint8Array(BATCH), ids = new Float64Array(BATCH), owners = new Float64Array(BATCH), hours = new Uint32Array(BATCH), seconds = new Uint32Array(BATCH), fields = new Uint32Array(BATCH * FIELDS);
  const sec = Math.floor(Date.now() / 1000);
  for (let i = 0; i < BATCH; i++) {
    ids[i] = 1 + Math.floor(rnd() * LINKS); hours[i] = hour; seconds[i] = sec; owners[i] = 1 + (ids[i] % 50);
    const v = Math.floor(rnd() * VISITORS);
    fields[i * FIELDS] = intern(`10.${v >> 8}.${v & 255}.1`); fields[i * FIELDS + 1] = intern(agents[v % 2]); fields[i * FIELDS + 2] = intern(refs[v % 3]);
    if (FIELDS > 3) fields[i * FIELDS + 3] = intern('default');
  }
  return { kinds, ids, owners, hours, seconds, fields, strings };
}
const WARM = Number(process.env.WARM ?? 30), TIMED = Number(process.env.TIMED ?? 15);
for (let i = 0; i < WARM; i++) write(aggregate(batch()));
const batches = Array.from({ length: TIMED }, batch);
const c0 = process.cpuUsage(), t0 = performance.now();
for (const b of batches) write(aggregate(b));
const wall = (performance.now() - t0) / TIMED, cpu = process.cpuUsage(c0);
console.log(`${dist.includes('/work/main') ? 'main' : 'new '} links=${LINKS} ${pragmas.join(' ')} wall=${wall.toFixed(0)}ms cpu=${((cpu.user + cpu.system) / 1000 / TIMED).toFixed(0)}ms per batch`);
sqlite.close();
for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
