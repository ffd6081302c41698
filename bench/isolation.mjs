// The `isolation` scenario (issue 38): can one account stall another? Six floods by account A (items 1–6 of
// the issue, bench/lib/isolation-floods.mjs), each for SECONDS against a fresh server (SQLite), while
// bench/lib/probe.mjs times GET /health from a process of its own and account B, in another
// (bench/lib/isolation-victim.mjs), makes an event every so often and times its webhook deliveries.
// Figures: the worst /health p99 over the floods (target ≤ 50 ms) and B's slowest delivery (target ≤ 5 s);
// a missed target is reported, never an error. Needs a build. Standalone, against any build:
//   node bench/isolation.mjs [SERVER_DIR] → one line per flood, then `isolation: …`
// ISOLATION_FLOODS=tarpit,export runs only those; ISOLATION_SECONDS sets each flood's length; BENCH_QUICK=1 is 2 s each.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { call } from './lib/call.mjs';
import { FLOODS } from './lib/isolation-floods.mjs';
import { outside } from './lib/isolation-outside.mjs';
import { BENCH_HOST, freePort, start, waitForPort } from './lib/proc.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
export const TARGETS = { healthP99Ms: 50, deliveryS: 5 };
/** The longest a flood's setup (A's webhooks, links, keys) may take: its requests' deadline. */
const SETUP_MS = 60_000;
/** A helper process (the probe, B) still running this long after it should have ended is killed. */
const HELPER_SPARE_MS = 60_000;

/** A child's last stdout line as JSON once it exits (null if it printed none); `onLine` hears every line; killed after `lifeMs`. */
function child(args, lifeMs, onLine = () => {}) {
  const p = spawn('node', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const timer = setTimeout(() => p.kill('SIGKILL'), lifeMs);
  p.on('close', () => clearTimeout(timer));
  let last = null;
  createInterface({ input: p.stdout }).on('line', (line) => {
    last = line;
    onLine(line);
  });
  p.result = new Promise((done) => p.on('close', () => done(last?.startsWith('{') ? JSON.parse(last) : null)));
  return p;
}

/** Account B's process (bench/lib/isolation-victim.mjs), once it is set up; an event every second (0.5 s in short runs). */
async function startVictim(port, key, ms, drainMs) {
  let isReady;
  const ready = new Promise((r) => (isReady = r));
  const args = [here('./lib/isolation-victim.mjs'), String(port), key, String(ms), String(drainMs), String(ms >= 5000 ? 1000 : 500)];
  const victim = child(args, ms + drainMs + HELPER_SPARE_MS, (l) => l === 'ready' && isReady());
  victim.result.then(isReady);
  await ready;
  return victim;
}

async function runFlood(serverDir, seeded, name, seconds, drainMs) {
  const flood = FLOODS[name];
  if (seeded[flood.db].failed) throw new Error(seeded[flood.db].failed);
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-isolation-'));
  const db = join(dir, 'isolation.db');
  copyFileSync(seeded[flood.db].path, db);
  const keys = seeded[flood.db].keys;
  const world = await outside();
  const port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${db}`, BASE_URL: `http://${BENCH_HOST}`, LOG_LEVEL: 'error' };
  const server = start('node', [join(serverDir, 'dist/server.js')], { ...env, OUTBOUND_ALLOW_LOOPBACK: 'true', ...flood.env });
  const helpers = [];
  const began = performance.now();
  try {
    await waitForPort(port);
    const ms = seconds * 1000;
    await call(port, { path: '/health', timeoutMs: 30_000 }); // the routes A and B use are first built by their setup, before the probe
    const f = { port, a: keys.a, quiet: keys.quiet, links: seeded[flood.db].links, world, until: performance.now() + SETUP_MS };
    const state = await flood.setup?.(f);
    // B is set up (its receiver, link and webhook) before any flood: the click writer reads who hears link.clicked then.
    const victim = await startVictim(port, keys.b.key, ms, drainMs);
    helpers.push(victim);
    const probe = child([here('./lib/probe.mjs'), String(port), String(ms)], ms + HELPER_SPARE_MS);
    helpers.push(probe);
    f.until = performance.now() + ms;
    const seen = await flood.run(f, state);
    // A probe killed while its requests still waited saw the server stall for good: the worst there is.
    const health = (await probe.result) ?? { p50: Infinity, p99: Infinity, max: Infinity, count: 0, errors: 0 };
    const b = (await victim.result) ?? { error: 'the victim printed nothing' };
    return { name, ...health, b, ...seen, tookS: (performance.now() - began) / 1000 };
  } finally {
    server.kill('SIGKILL'); // a flooded server need not end gracefully
    for (const h of helpers) if (h.exitCode === null) h.kill('SIGKILL');
    await Promise.all([server.exited, world.close(), ...helpers.map((h) => h.result)]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two databases: `plain` (accounts only: the floods with the link checker on) and `log` (A's links and a visit log). */
async function seedAll(serverDir, dir, quick) {
  // A seed that fails (a schema the seed no longer fits) fails only the floods on its database.
  const one = async (name, links, packs) => {
    const path = join(dir, `${name}.db`);
    const seed = join(serverDir, 'bench/lib/isolation-seed.mjs');
    try {
      const { stdout } = await promisify(execFile)('node', [seed, path, String(links), String(packs)]);
      return { path, keys: JSON.parse(stdout), links };
    } catch (err) {
      const lines = String(err.stderr || err.message).split('\n');
      const why = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0];
      return { failed: `seeding ${name}: ${why}` };
    }
  };
  const [plain, log] = await Promise.all([one('plain', 0, 0), one('log', 20_000, quick ? 100_000 : 1_000_000)]);
  return { plain, log };
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : n === Infinity ? 'failed' : 'n/a');

function line(r) {
  const b = r.b.error
    ? `B: ${r.b.error}`
    : `B's slowest delivery ${fmt(r.b.maxS)} s (${r.b.events} events, ${r.b.undelivered} undelivered), its link check ${fmt(r.b.checkS)} s (${r.b.checkStatus || 'no answer'})`;
  const extra = Object.entries(r)
    .filter(([k]) => ['keys', 'refused', 'visits', 'sunk', 'held'].includes(k))
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(', ');
  return (
    `isolation ${r.name.padEnd(12)} /health p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, max ${fmt(r.max, 0)} ms (${r.count} probes, ${r.errors} failed); ` +
    `${b}; answers ${JSON.stringify(r.statuses)}${extra ? `; ${extra}` : ''} (${fmt(r.tookS)} s)`
  );
}

/**
 * Every flood for `seconds` each against the build in `serverDir`; prints a line per flood and answers the
 * worst /health p99 (ms), B's slowest delivery (s; a floor when some were never delivered) and how many were not.
 */
export async function benchIsolation(serverDir, seconds, { quick = seconds < 5 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-isolation-seed-'));
  const results = [];
  try {
    const seeded = await seedAll(serverDir, dir, quick);
    const only = process.env.ISOLATION_FLOODS?.split(',');
    for (const name of Object.keys(FLOODS).filter((n) => !only || only.includes(n))) {
      // A flood that breaks (a server that never listens, a setup the build refuses) is reported, and counts as the worst.
      const r = await runFlood(serverDir, seeded, name, seconds, quick ? 3000 : 15_000).catch((err) => ({ name, failed: err.message }));
      results.push(r.failed ? { ...r, p99: Infinity, b: { maxS: Infinity } } : r);
      console.log(r.failed ? `isolation ${name.padEnd(12)} FAILED: ${r.failed}` : line(r));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Infinity (a failed flood) counts; NaN (nothing measured) does not.
  const worst = (values) => {
    const seen = values.filter((v) => !Number.isNaN(v));
    return seen.length ? Math.max(...seen) : NaN;
  };
  const figures = {
    healthP99Ms: worst(results.map((r) => r.p99)),
    deliveryS: worst(results.map((r) => r.b.maxS ?? (r.b.error ? Infinity : NaN))),
    undelivered: results.reduce((n, r) => n + (r.b.undelivered ?? 0), 0),
  };
  const missed = [figures.healthP99Ms > TARGETS.healthP99Ms && '/health p99', figures.deliveryS > TARGETS.deliveryS && 'delivery'].filter(Boolean);
  console.log(
    `isolation: ${results.map((r) => `${r.name}=${fmt(r.p99)}ms/${fmt(r.b.maxS)}s`).join(' ')} (/health p99, B's slowest delivery; ${seconds} s each); ` +
      `targets ≤ ${TARGETS.healthP99Ms} ms and ≤ ${TARGETS.deliveryS} s: ${missed.length ? `MISSED (${missed.join(', ')})` : 'met'}`,
  );
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.env.BENCH_QUICK === '1';
  const seconds = Number(process.env.ISOLATION_SECONDS ?? (quick ? 2 : 10));
  const f = await benchIsolation(resolve(process.argv[2] ?? '.'), seconds, { quick });
  console.log(`isolation: worst /health p99 ${fmt(f.healthP99Ms)} ms, slowest delivery ${fmt(f.deliveryS)} s (${f.undelivered} undelivered)`);
}
