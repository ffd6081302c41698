// `stats_lag_p99_ms`: how long after a redirect is answered its click shows in `GET /api/url/{id}`
// (`data.clicks`), on SQLite, while other links take a moderate background load. Each probe is one
// redirect of the probe link, then a read of its statistics every POLL_MS until the count grows.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { wrkCommand } from './generator.mjs';
import { USER_AGENTS } from './browser.mjs';
import { stop } from './proc.mjs';

const POLL_MS = 25;
const FLUSH_MS = 2000; // the server's CLICK_FLUSH_MS (its default, src/config.ts)
const GIVE_UP_MS = 30_000;
// 10 connections each waiting 5 ms before a request: at most 2,000 redirects a second, a busy server
// that is not saturated (saturated, the lag would measure the queue in front of it).
const BACKGROUND = { connections: 10, paceMs: 5, rate: 2000 };
const PACED_SCRIPT = new URL('./wrk-paced.lua', import.meta.url).pathname;
const LOAD = new URL('../load.mjs', import.meta.url).pathname;

function get(agent, port, host, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { host, 'user-agent': USER_AGENTS[2], ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The background load in its own process: paced wrk, or autocannon at a fixed overall rate. */
function background(generator, port, host) {
  const spec = { url: `http://127.0.0.1:${port}`, host, connections: BACKGROUND.connections, duration: 3600, paths: { prefix: 'd', count: 1000 } };
  if (generator !== 'wrk') return spawn('node', [LOAD, JSON.stringify({ ...spec, rate: BACKGROUND.rate })], { stdio: 'ignore' });
  const args = wrkCommand(spec);
  args[args.indexOf('-s') + 1] = PACED_SCRIPT;
  args.push(`pace=${BACKGROUND.paceMs}`);
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  child.output = '';
  child.stdout.on('data', (chunk) => (child.output += chunk));
  return child;
}

/** Milliseconds from the probe redirect's answer to the first statistics read that counts it. */
async function probe(agent, target, host) {
  const stats = async () => {
    const res = await get(agent, target.port, host, `/api/url/${target.db.statsLinkId}`, { authorization: `Bearer ${target.db.apiKey}` });
    if (res.status !== 200) throw new Error(`GET /api/url/{id} answered ${res.status}: ${res.body.slice(0, 200)}`);
    return JSON.parse(res.body).data.clicks;
  };
  const before = await stats();
  const redirect = await get(agent, target.port, host, '/stats-link', { 'x-forwarded-for': '81.2.69.142' });
  if (redirect.status !== 302) throw new Error(`the probe redirect answered ${redirect.status}`);
  const answered = performance.now();
  for (;;) {
    await sleep(POLL_MS);
    if ((await stats()) > before) return performance.now() - answered;
    if (performance.now() - answered > GIVE_UP_MS) return Infinity;
  }
}

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Runs the probes against `target` (a server from run.mjs on a seed with 1k links) and stops it. */
export async function benchStatsLag({ quick, host, generator, target }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const load = background(generator, target.port, host);
  const lags = [];
  try {
    await sleep(1000); // the background load under way, and the writer's first batch behind it
    for (let i = 0; i < (quick ? 10 : 50); i++) {
      lags.push(await probe(agent, target, host));
      // A probe ends just after a batch is written: a random pause spreads the next one over the flush interval.
      await sleep(Math.random() * FLUSH_MS);
    }
  } finally {
    load.kill('SIGINT'); // wrk prints its summary on SIGINT
    await new Promise((resolve) => (load.exitCode === null ? load.once('exit', resolve) : resolve()));
    agent.destroy();
    await stop(target.child);
  }
  const sorted = lags.sort((a, b) => a - b);
  const summary = load.output?.trim().split('\n').pop();
  const rate = summary?.startsWith('{') ? JSON.parse(summary).requests / (JSON.parse(summary).durationUs / 1e6) : undefined;
  return {
    probes: sorted.length,
    p50: at(sorted, 0.5),
    p99: at(sorted, 0.99),
    max: sorted.at(-1),
    lost: sorted.filter((l) => l === Infinity).length,
    rate,
  };
}

export const lagKeys = (lag) => ({ stats_lag_p99_ms: Number.isFinite(lag.p99) ? lag.p99.toFixed(0) : 'never' });

export function lagLine(lag) {
  const load = lag.rate ? `${lag.rate.toFixed(0)} req/s` : `up to ${BACKGROUND.rate} req/s`;
  const never = lag.lost ? `; ${lag.lost} never showed within ${GIVE_UP_MS / 1000} s` : '';
  return `stats lag, redirect answered → count in GET /api/url/{id} (${lag.probes} probes, background ${load} on other links): p50 ${lag.p50.toFixed(0)} ms, p99 ${lag.p99.toFixed(0)} ms, max ${lag.max.toFixed(0)} ms${never}`;
}
