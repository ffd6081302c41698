// `npm run bench`: Redirectory's redirect against bare node:http, alternated A B A B A B in one run.
// BENCH_QUICK=1 runs a short version (CI runs it so the benchmark keeps working; it does not judge figures).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cpuSeconds, freePort, median, rssMb, start, stop, waitForPort } from './lib/proc.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const startedAt = performance.now();
// A run lasts a few seconds: clicks are written in batches every second (CLICK_FLUSH_MS), and a run
// much shorter than that would leave most of its writing to after the run. 80k (about 4 s at 20k req/s)
// keeps the default run under 5 minutes on 2 cores with room for a slow day (100k took 4.9 minutes).
const RUN = { amount: QUICK ? 10_000 : 80_000, reps: QUICK ? 1 : 3, connections: 50 };
// After each Redirectory run its CPU is read once its last batch is written, so that batch's cost is
// counted to its own run and not spent during the baseline's next one. The baseline writes nothing.
const SETTLE_MS = 1_500;
const BIG = QUICK ? 20_000 : 1_000_000;
const CLICKS = QUICK ? 20_000 : 1_000_000;
const HOST = 'bench.test';
const STATS_CONNECTIONS = 4;
const dir = mkdtempSync(join(tmpdir(), 'redirectory-bench-'));
const rows = [];

function seed(name, links, clicks = 0) {
  const path = join(dir, `${name}.db`);
  return { path, ...JSON.parse(execFileSync('node', ['bench/seed.mjs', path, String(links), String(clicks)], { encoding: 'utf8' })) };
}

async function server(db, env = {}) {
  const port = await freePort();
  const child = start('node', ['dist/server.js'], {
    PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${db.path}`, BASE_URL: `http://${HOST}`,
    TRUST_PROXY: 'true', LOG_LEVEL: 'warn', ...env,
  });
  await waitForPort(port);
  return { child, port, db, served: 0, settles: true };
}

function load(port, spec) {
  const out = execFileSync('node', ['bench/load.mjs', JSON.stringify({ url: `http://127.0.0.1:${port}`, host: HOST, connections: RUN.connections, amount: RUN.amount, ...spec })], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out);
}

/** One measured run: load from a separate process, server CPU read from /proc around it (and its last batch). */
async function measure(target, spec) {
  const cpuBefore = cpuSeconds(target.child.pid);
  const result = load(target.port, spec);
  const rss = rssMb(target.child.pid);
  if (target.settles) await sleep(SETTLE_MS);
  const cpu = cpuSeconds(target.child.pid) - cpuBefore;
  target.served += result.ok;
  return { ...result, cpuUs: (cpu * 1e6) / Math.max(result.requests, 1), rss };
}

/** Baseline and Redirectory alternate so machine drift cancels out; medians are compared. */
async function compare(name, baseline, target, spec) {
  const a = [];
  const b = [];
  // One unmeasured run each first: JIT warm-up, and the scenario's first aggregate rows, belong to no
  // steady state (both sides get the same).
  for (const side of [baseline, target]) {
    side.served += load(side.port, { ...spec, amount: RUN.amount / 4 }).ok;
    if (side.settles) await sleep(SETTLE_MS);
  }
  for (let i = 0; i < RUN.reps; i++) {
    a.push(await measure(baseline, spec));
    b.push(await measure(target, spec));
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const row = {
    scenario: name,
    rps: pick(b, 'rps'), p50: pick(b, 'p50'), p99: pick(b, 'p99'), cpuUs: pick(b, 'cpuUs'), rss: Math.max(...b.map((r) => r.rss)),
    baseRps: pick(a, 'rps'), baseCpuUs: pick(a, 'cpuUs'),
    errors: b.reduce((n, r) => n + r.errors + (r.requests - r.ok), 0),
  };
  row.ratio = row.rps / row.baseRps;
  rows.push(row);
  return row;
}

/** Stops a server gracefully and compares the clicks it recorded with the 2xx/3xx the load generator saw. */
async function clicksLost(target) {
  const { code } = await stop(target.child);
  if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM`);
  const db = new Database(target.db.path, { readonly: true });
  const { recorded } = db.prepare(`SELECT COALESCE(SUM(clicks), 0) AS recorded FROM click_summaries
    WHERE target_kind = 'link' AND target_id <> ?`).get(target.db.statsLinkId);
  db.close();
  return target.served - recorded;
}


const basePort = await freePort();
const baseline = { child: start('node', ['bench/baseline.mjs'], { PORT: String(basePort) }), port: basePort, served: 0, settles: false };
await waitForPort(basePort);

const small = await server(seed('small', 1000));
// Rate limits stay as configured for real use on the redirect runs (they do not apply there); the API
// measurements below need them raised.
const big = await server(seed('big', BIG, CLICKS), { RATE_LIMIT_MAX: '1000000000' });
const direct = await compare('direct, 1k links', baseline, small, { paths: { prefix: 'd', count: 1000 } });
const grown = await compare(`direct, ${BIG / 1000}k links`, baseline, big, { paths: { prefix: 'd', count: BIG } });
const targeted = await compare('device+geo+language targets', baseline, small, { paths: { prefix: 't', count: 1000 } });
await compare('with parameters', baseline, small, { paths: { prefix: 'p', count: 1000 } });
// The peak, read right after each load run on the 1M-link server (idle, the collector gives memory back).
const rssBig = grown.rss;

// Latency of the statistics read itself: a few concurrent callers, not a saturating flood (at 50
// connections p99 measures the queue in front of a busy server, not the read).
const stats = await measure(big, { connections: STATS_CONNECTIONS, amount: QUICK ? 1000 : 5000, path: `/api/url/${big.db.statsLinkId}`, headers: { authorization: `Bearer ${big.db.apiKey}` } });
big.served -= stats.ok; // API answers are not clicks
const lost = (await clicksLost(small)) + (await clicksLost(big));

const workers = await server(seed('workers', 1000), { WORKERS: '2' });
await compare('direct, 1k links, WORKERS=2', baseline, workers, { paths: { prefix: 'd', count: 1000 } });
const workersLost = await clicksLost(workers);

const creator = await server(seed('create', 0), { RATE_LIMIT_MAX: '1000000000' });
const created = await measure(creator, {
  amount: QUICK ? 2000 : 20_000, method: 'POST', path: '/api/url/add', body: '{"url":"https://example.com/new/[<id>]"}',
  headers: { authorization: `Bearer ${creator.db.apiKey}`, 'content-type': 'application/json' },
});
await stop(creator.child);
await stop(baseline.child);
rmSync(dir, { recursive: true, force: true });

const fmt = (n, d = 0) => n.toFixed(d).padStart(9);
const minutes = (performance.now() - startedAt) / 60_000;
console.log(`\nRedirectory benchmark (${QUICK ? 'quick' : 'full'}: ${RUN.reps}x A/B of ${RUN.amount} requests, ${RUN.connections} connections, ${minutes.toFixed(1)} min)`);
console.log('scenario                          req/s      p50      p99  CPU µs/req  ratio  base req/s  base µs/req   RSS MB  non-3xx');
for (const r of rows) {
  console.log(`${r.scenario.padEnd(30)}${fmt(r.rps)}${fmt(r.p50, 1)}${fmt(r.p99, 1)}${fmt(r.cpuUs, 1)}   ${r.ratio.toFixed(2)}${fmt(r.baseRps)}   ${fmt(r.baseCpuUs, 1)}${fmt(r.rss)}${fmt(r.errors)}`);
}
console.log(`link creation: ${created.rps.toFixed(0)} links/s (${created.ok} created, p99 ${created.p99} ms)`);
console.log(`GET /api/url/{id} with ${CLICKS} clicks (${STATS_CONNECTIONS} connections): p50 ${stats.p50} ms, p99 ${stats.p99} ms, ${stats.rps.toFixed(0)} req/s`);
console.log(`clicks lost: ${lost} single-process, ${workersLost} with WORKERS=2`);
console.log(`bench: redirect_ratio=${direct.ratio.toFixed(2)} targeted_ratio=${targeted.ratio.toFixed(2)} growth_ratio=${(grown.ratio / direct.ratio).toFixed(2)} clicks_lost=${lost + workersLost} create_per_s=${created.rps.toFixed(0)} stats_p99_ms=${stats.p99} rss_mb=${rssBig.toFixed(0)}`);
