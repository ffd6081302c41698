// The load generator of `npm run bench`, in its own process: wrk (C, a fraction of a core for the load
// it makes) when it is installed, else autocannon (bench/load.mjs, Node: it needs about as much CPU as
// the server it drives, and on 2 shared cores it caps both sides near its own limit).
import { execFileSync } from 'node:child_process';
import { IPS, LANGUAGES, REFERERS, SCRAMBLE, USER_AGENTS } from './browser.mjs';
import { onPath, pinned } from './proc.mjs';

const WRK_SCRIPT = new URL('./wrk.lua', import.meta.url).pathname;
const AUTOCANNON = new URL('../load.mjs', import.meta.url).pathname;
const WRK_THREADS = 2;

/** BENCH_GENERATOR=wrk|autocannon forces one; by default wrk when it is on PATH. */
export function pickGenerator(choice = process.env.BENCH_GENERATOR) {
  if (choice && choice !== 'wrk' && choice !== 'autocannon') throw new Error(`BENCH_GENERATOR must be wrk or autocannon, not ${choice}`);
  if (choice === 'wrk' && !onPath('wrk')) throw new Error('BENCH_GENERATOR=wrk but no wrk on PATH (apt-get install -y wrk)');
  return choice ?? (onPath('wrk') ? 'wrk' : 'autocannon');
}

function wrkArgs(spec) {
  const args = [`host=${spec.host}`, `method=${spec.method ?? 'GET'}`, `scramble=${SCRAMBLE}`];
  if (spec.paths) args.push(`prefix=${spec.paths.prefix}`, `count=${spec.paths.count}`, `zipf=${spec.paths.zipf ? 1 : 0}`);
  else args.push(`path=${spec.path}`);
  if (spec.body) args.push(`body=${spec.body}`);
  for (const [name, value] of Object.entries(spec.headers ?? {})) args.push(`header=${name}: ${value}`);
  const lists = { ua: USER_AGENTS, lang: LANGUAGES, ref: REFERERS, ip: IPS };
  for (const [key, values] of Object.entries(lists)) args.push(...values.map((v) => `${key}=${v}`));
  return args;
}

/** wrk's command line for a spec (url, connections, duration, optional threads, and what wrkArgs reads). */
export function wrkCommand(spec) {
  const threads = spec.threads ?? Math.min(WRK_THREADS, spec.connections);
  return [
    '-t',
    String(threads),
    '-c',
    String(spec.connections),
    '-d',
    `${spec.duration}s`,
    '--timeout',
    '10s',
    '-s',
    WRK_SCRIPT,
    spec.url,
    '--',
    ...wrkArgs(spec),
  ];
}

/**
 * wrk runs for a duration (it has no request count): requests still in flight when it stops were served
 * but never counted, and are reported as `unanswered` (requests built minus requests answered).
 */
function runWrk(spec) {
  const out = execFileSync(...pinned('load', 'wrk', wrkCommand(spec)), { encoding: 'utf8' });
  const r = JSON.parse(out.trim().split('\n').pop());
  return {
    requests: r.requests,
    rps: r.requests / (r.durationUs / 1e6),
    p50: r.p50Us / 1000,
    p99: r.p99Us / 1000,
    // wrk counts a status above 399 as an error and a socket error as no request at all.
    ok: r.requests - r.status,
    errors: r.socket + r.timeout,
    unanswered: r.unanswered,
  };
}

function runAutocannon(spec) {
  const out = execFileSync(...pinned('load', 'node', [AUTOCANNON, JSON.stringify(spec)]), { encoding: 'utf8', maxBuffer: 1 << 24 });
  return { ...JSON.parse(out), unanswered: 0 };
}

/** One load run against 127.0.0.1:port; spec has both a duration (wrk) and an amount (autocannon). */
export function load(generator, port, spec) {
  const full = { url: `http://127.0.0.1:${port}`, ...spec };
  return generator === 'wrk' ? runWrk(full) : runAutocannon(full);
}
