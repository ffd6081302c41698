// `npm run bench`: Redirectory's redirect against bare node:http, alternated A B A B A B in one run.
// BENCH_QUICK=1 runs a short version (CI runs it so the benchmark keeps working; it does not judge figures).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { load, pickGenerator } from './lib/generator.mjs';
import { BENCH_HOST, cpuSeconds, freePort, median, rssMb, serverEnv, start, stop, waitForPort } from './lib/proc.mjs';
import { printReport } from './lib/report.mjs';
import { benchImport } from './lib/import.mjs';
import { benchAbuse } from './lib/abuse.mjs';
import { benchPostgres, checkPostgres } from './lib/pg.mjs';
import { benchStatsLag } from './lib/stats-lag.mjs';
import { benchKill } from './lib/kill.mjs';
import { benchIsolation } from './isolation.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const GENERATOR = pickGenerator();
const startedAt = performance.now();
// A run lasts a few seconds: clicks are written in batches every two seconds (CLICK_FLUSH_MS), and a run
// much shorter than that would leave most of its writing to after the run. autocannon runs a request
// count (80k, about 4 s at 20k req/s), wrk a duration in whole seconds; the warm-up is a quarter run.
// The 1k-link server's four scenarios share their baseline runs (compareSet): `setReps` reps of five runs.
const RUN = { quick: QUICK, amount: QUICK ? 10_000 : 80_000, duration: QUICK ? 1 : 4, reps: QUICK ? 1 : 3, setReps: QUICK ? 1 : 5, connections: 50 };
const WARM_UP = { amount: RUN.amount / 4, duration: Math.max(1, RUN.duration / 4) };
// After each Redirectory run its CPU is read once its last batch is written, so that batch's cost is
// counted to its own run and not spent during the baseline's next one. The baseline writes nothing.
const SETTLE_MS = 1_500;
const BIG = QUICK ? 20_000 : 1_000_000;
const CLICKS = QUICK ? 20_000 : 1_000_000;
const HOST = BENCH_HOST;
const STATS_CONNECTIONS = 4;
const dir = mkdtempSync(join(tmpdir(), 'redirectory-bench-'));
const rows = [];

function seed(name, links, clicks = 0) {
  const path = join(dir, `${name}.db`);
  return { path, ...JSON.parse(execFileSync('node', ['bench/seed.mjs', path, String(links), String(clicks)], { encoding: 'utf8' })) };
}

async function server(db, env = {}) {
  const port = await freePort();
  // WORKERS=2 is a cluster of its own: it keeps every CPU (lib/proc.mjs#PIN).
  const child = start('node', ['dist/server.js'], serverEnv(port, db.path, env), { pin: !env.WORKERS });
  await waitForPort(port);
  return { child, port, db, served: 0, unanswered: 0, settles: true };
}

/** One load run; the 2xx/3xx answers to alias requests are the clicks the server must have recorded. */
function drive(target, spec, size = RUN) {
  const result = load(GENERATOR, target.port, { host: HOST, connections: RUN.connections, amount: size.amount, duration: size.duration, ...spec });
  if (spec.paths) {
    target.served += result.ok;
    target.unanswered += result.unanswered;
  }
  return result;
}

/** One measured run: load from a separate process, server CPU read from /proc around it (and its last batch). */
async function measure(target, spec, size) {
  const cpuBefore = cpuSeconds(target.child.pid);
  const dbBefore = await target.dbCpu?.(); // PostgreSQL's backends (lib/pg.mjs)
  const result = drive(target, spec, size);
  const rss = rssMb(target.child.pid);
  if (target.settles) await sleep(SETTLE_MS);
  const cpu = cpuSeconds(target.child.pid) - cpuBefore;
  const dbUs = target.dbCpu && (((await target.dbCpu()) - dbBefore) * 1e6) / Math.max(result.requests, 1);
  return { ...result, cpuUs: (cpu * 1e6) / Math.max(result.requests, 1), rss, dbUs };
}

/** Baseline and Redirectory alternate so machine drift cancels out; medians are compared. */
async function compare(name, baseline, target, spec) {
  const [row] = await compareSet([{ name, spec }], baseline, target, RUN.reps);
  return row;
}

/**
 * Several scenarios of one server against one baseline sample: each rep runs the baseline and every scenario,
 * in turn forwards and backwards (so drift lands alike on all), and each scenario's ratio divides by the same
 * baseline median. Ratios compared with each other (`cpu_rules` against `cpu_ratio`) then differ by what the
 * scenarios cost, not by two baseline samples minutes apart (docs/performance.md#shared-baseline).
 */
async function compareSet(scenarios, baseline, target, reps = RUN.setReps) {
  const sides = [{ target: baseline, spec: scenarios[0].spec, runs: [] }, ...scenarios.map((s) => ({ target, spec: s.spec, runs: [] }))];
  // One unmeasured run each first: JIT warm-up, and the scenario's first aggregate rows, belong to no
  // steady state (both sides get the same).
  for (const side of sides) {
    drive(side.target, side.spec, WARM_UP);
    if (side.target.settles) await sleep(SETTLE_MS);
  }
  for (let i = 0; i < reps; i++) {
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) side.runs.push(await measure(side.target, side.spec));
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const [base, ...measured] = sides;
  return measured.map(({ runs: b }, k) => {
    const row = {
      scenario: scenarios[k].name,
      rps: pick(b, 'rps'),
      p50: pick(b, 'p50'),
      p99: pick(b, 'p99'),
      cpuUs: pick(b, 'cpuUs'),
      dbUs: b[0].dbUs === undefined ? undefined : pick(b, 'dbUs'),
      rss: Math.max(...b.map((r) => r.rss)),
      baseRps: pick(base.runs, 'rps'),
      baseCpuUs: pick(base.runs, 'cpuUs'),
      errors: b.reduce((n, r) => n + r.errors + (r.requests - r.ok), 0),
    };
    row.ratio = row.rps / row.baseRps;
    row.cpuRatio = row.baseCpuUs / row.cpuUs;
    rows.push(row);
    return row;
  });
}

/**
 * Stops a server gracefully and compares the clicks it recorded with the 2xx/3xx the load generator
 * counted. wrk stops with requests in flight that the server may have served: recorded clicks may
 * exceed the count by at most those (`extra`), never fall short of it (`lost`).
 */
async function clicksLost(target) {
  const { code } = await stop(target.child);
  if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM`);
  const db = new Database(target.db.path, { readonly: true });
  const { recorded } = db
    .prepare(
      `SELECT COALESCE(SUM(clicks), 0) AS recorded FROM click_summaries
    WHERE target_kind = 'link' AND target_id <> ?`,
    )
    .get(target.db.statsLinkId);
  db.close();
  return { lost: Math.max(0, target.served - recorded), extra: Math.max(0, recorded - target.served), unanswered: target.unanswered };
}

const add = (x, y) => ({ lost: x.lost + y.lost, extra: x.extra + y.extra, unanswered: x.unanswered + y.unanswered });

await checkPostgres();
const basePort = await freePort();
const baseline = {
  child: start('node', ['bench/baseline.mjs'], { PORT: String(basePort) }, { pin: true }),
  port: basePort,
  served: 0,
  unanswered: 0,
  settles: false,
};
await waitForPort(basePort);

const names = {
  direct: 'direct, 1k links',
  grown: `direct, ${BIG / 1000}k links`,
  zipf: `Zipf s=1, ${BIG / 1000}k links`,
  targeted: 'device+geo+language targets',
  rules: '6 rules + 3-way split',
};
const small = await server(seed('small', 1000));
// Rate limits stay as configured for real use on the redirect runs (they do not apply there); the API
// measurements below need them raised.
const big = await server(seed('big', BIG, CLICKS), { RATE_LIMIT_MAX: '1000000000' });
await compareSet(
  [
    [names.direct, 'd'],
    [names.targeted, 't'],
    ['with parameters', 'p'],
    [names.rules, 'r'],
  ].map(([name, prefix]) => ({ name, spec: { paths: { prefix, count: 1000 } } })),
  baseline,
  small,
);
await compare(names.grown, baseline, big, { paths: { prefix: 'd', count: BIG } });
// Real traffic is skewed: a few links take most visits, and the rest are the long tail.
await compare(names.zipf, baseline, big, { paths: { prefix: 'd', count: BIG, zipf: true } });

// Latency of the statistics read itself: a few concurrent callers, not a saturating flood (at 50
// connections p99 measures the queue in front of a busy server, not the read).
const stats = await measure(
  big,
  { connections: STATS_CONNECTIONS, path: `/api/url/${big.db.statsLinkId}`, headers: { authorization: `Bearer ${big.db.apiKey}` } },
  { amount: QUICK ? 1000 : 5000, duration: QUICK ? 1 : 3 },
);
// The whole account's clicks by day over the 90 days kept hourly, for the account holding every link.
const day = (ago) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
const series = await measure(
  big,
  { connections: STATS_CONNECTIONS, path: `/api/stats/clicks?from=${day(89)}&to=${day(0)}`, headers: { authorization: `Bearer ${big.db.apiKey}` } },
  { amount: QUICK ? 1000 : 5000, duration: QUICK ? 1 : 3 },
);
const single = add(await clicksLost(small), await clicksLost(big));

const workers = await server(seed('workers', 1000), { WORKERS: '2' });
await compare('direct, 1k links, WORKERS=2', baseline, workers, { paths: { prefix: 'd', count: 1000 } });
const clicks = { single, workers: await clicksLost(workers) };
clicks.killed = await benchKill({
  db: seed('kill', 1000),
  server,
  generator: GENERATOR,
  host: HOST,
  connections: RUN.connections,
  seconds: QUICK ? 2 : 4,
});
const pg = await benchPostgres({ quick: QUICK, big: BIG, generator: GENERATOR, host: HOST, baseline, server, compare });
const lag = await benchStatsLag({
  quick: QUICK,
  host: HOST,
  generator: GENERATOR,
  target: await server(seed('lag', 1000), { RATE_LIMIT_MAX: '1000000000' }),
});

const creator = await server(seed('create', 0), { RATE_LIMIT_MAX: '1000000000' });
const created = await measure(
  creator,
  {
    method: 'POST',
    path: '/api/url/add',
    body: '{"url":"https://example.com/new/[<id>]"}',
    headers: { authorization: `Bearer ${creator.db.apiKey}`, 'content-type': 'application/json' },
  },
  { amount: QUICK ? 2000 : 20_000, duration: QUICK ? 1 : 5 },
);
await stop(creator.child);
await stop(baseline.child);
rmSync(dir, { recursive: true, force: true });
const imported = benchImport(QUICK ? 5_000 : 50_000);
// Four floods that once stalled every client, 10 s each (2.5 s quick), against this build: /health p99 under the worst.
const abuseP99 = await benchAbuse(process.cwd(), QUICK ? 2.5 : 10);
// One account's floods (issue 38, items 1-6), 10 s each (2 s quick): /health p99 and another account's webhook deliveries.
const isolation = await benchIsolation(process.cwd(), QUICK ? 2 : 10, { quick: QUICK });

printReport({
  rows,
  names,
  generator: GENERATOR,
  run: RUN,
  minutes: (performance.now() - startedAt) / 60_000,
  created,
  stats,
  series,
  clicks,
  statsClicks: CLICKS,
  connections: STATS_CONNECTIONS,
  imported,
  abuseP99,
  isolation,
  pg,
  lag,
});
