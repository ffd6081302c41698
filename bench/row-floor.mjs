// The floor under any click writer that keeps exact per-target counters as rows: the CPU per click of the
// cheapest row writes SQLite can do once a batch is aggregated (one write per distinct target of the
// batch, in key order, in one transaction). Tables of LINKS rows shaped like click_summaries and
// click_uniques; batches of B clicks drawn uniformly or Zipf (s=1) over the links. Nothing of
// Redirectory runs here: this bounds what any writer of that kind costs (docs/performance.md#writer-floor).
//   node bench/row-floor.mjs [LINKS=1000000] [uniform|zipf] [B=40000] [CACHE_MB=2]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [LINKS = 1_000_000, DIST = 'uniform', B = 40_000, CACHE_MB = 2] = process.argv.slice(2).map((a, i) => (i === 1 ? a : Number(a)));
const dir = mkdtempSync(join(tmpdir(), 'redirectory-floor-'));
const db = new Database(join(dir, 'floor.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma(`cache_size = -${CACHE_MB * 1024}`);
db.exec(`create table s (kind text not null, id integer not null, clicks integer not null, uniques integer not null,
  hour integer not null, hour_clicks integer not null, labels text not null, primary key (kind, id)) without rowid`);
db.exec('create table u (kind text not null, id integer not null, visitor text not null, primary key (kind, id, visitor)) without rowid');
const labels = '{"country:US":1,"device:Desktop":1,"browser:Chrome":1,"os:Windows":1,"language:en":1}';
const seedS = db.prepare('insert into s values (?, ?, 1, 1, 0, 1, ?)');
const seedU = db.prepare('insert into u values (?, ?, ?)');
db.transaction(() => {
  for (let id = 1; id <= LINKS; id++) {
    seedS.run('link', id, labels);
    seedU.run('link', id, `v${(id * 2654435761) % 4294967296}`.padEnd(22, 'x'));
  }
})();

let state = 12345;
const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) / 16777216;
// Zipf s=1 by inverting the harmonic sum: rank ≈ e^(u·H) with H ≈ ln(LINKS) + γ, good enough for a floor.
const H = Math.log(LINKS) + 0.5772;
const draw = DIST === 'zipf' ? () => Math.min(LINKS, Math.max(1, Math.floor(Math.exp(random() * H)))) : () => 1 + Math.floor(random() * LINKS);
const upsert = db.prepare(`insert into s values (?, ?, 1, 1, 1, 1, '{}') on conflict (kind, id) do update
  set clicks = clicks + 1, uniques = uniques + 1, hour_clicks = hour_clicks + 1`);
const visitor = db.prepare('insert or ignore into u values (?, ?, ?)');
const writes = {
  'summary upsert (integers only)': (id) => upsert.run('link', id),
  'visitor insert': (id) => visitor.run('link', id, `n${Math.floor(random() * 1e9)}`.padEnd(22, 'x')),
};

for (const [name, write] of Object.entries(writes)) {
  const perClick = [];
  let targets = 0;
  for (let b = 0; b < 5; b++) {
    const ids = [...new Set(Array.from({ length: B }, draw))].sort((x, y) => x - y);
    targets += ids.length;
    const before = process.cpuUsage();
    db.transaction(() => ids.forEach(write))();
    const used = process.cpuUsage(before);
    perClick.push((used.user + used.system) / B);
  }
  perClick.sort((x, y) => x - y);
  const share = (targets / 5 / B).toFixed(2);
  console.log(
    `${name}: ${LINKS} links ${DIST}, ${B} clicks a batch (${share} targets a click), ${CACHE_MB} MB cache: ${perClick.map((x) => x.toFixed(2)).join(' ')} µs a click`,
  );
}
db.close();
rmSync(dir, { recursive: true, force: true });
