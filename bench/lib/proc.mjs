// Process helpers for the benchmark: start, wait for a port, read CPU time and RSS from /proc.
import { spawn } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';

const TICKS_PER_SECOND = 100; // Linux USER_HZ

export function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {}
  }
  return false;
}

/**
 * Where the measured processes run: a server (and the baseline) on the last CPU, the load generator on the others,
 * when `taskset` is there and there are two CPUs or more; null (anywhere) otherwise or with BENCH_PIN=0. Left to the
 * scheduler on a 2-CPU guest, one scenario's 4 s runs read from 24 to 53 µs a request; pinned, mostly within about
 * ±1.5, with the host's own spikes left (docs/performance.md#pinned-bench).
 */
export const PIN = pinning();

function pinning() {
  const cpus = availableParallelism();
  if (process.env.BENCH_PIN === '0' || cpus < 2 || !onPath('taskset')) return null;
  return { server: String(cpus - 1), load: cpus === 2 ? '0' : `0-${cpus - 2}` };
}

/** A command run on the CPUs of `role` (PIN's server or load CPUs), as spawn's command and arguments. */
export function pinned(role, command, args) {
  return PIN ? ['taskset', ['-c', PIN[role], command, ...args]] : [command, args];
}

/** The benchmark servers' default domain: the Host the load sends. */
export const BENCH_HOST = 'bench.test';

/** A benchmark server's settings: SQLite at `dbPath`, links of BENCH_HOST, the load's X-Forwarded-For trusted. */
export function serverEnv(port, dbPath, extra = {}) {
  const base = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${dbPath}`, BASE_URL: `http://${BENCH_HOST}` };
  return { ...base, TRUST_PROXY: 'true', LOG_LEVEL: 'warn', ...extra };
}

/**
 * The seeded links point at example.com and the like: the link health checker stays off (HEALTH_INTERVAL_S=0)
 * unless a caller sets it, so a benchmark sends nothing outside the machine.
 */
export function start(command, args, env = {}, { pin = false } = {}) {
  const [file, argv] = pin ? pinned('server', command, args) : [command, args];
  const child = spawn(file, argv, { env: { HEALTH_INTERVAL_S: '0', ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

export async function waitForPort(port, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}

/** A process and its children (node:cluster workers), so WORKERS=N is measured whole. */
function family(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {}
  return [pid, ...children.flatMap(family)];
}

/** CPU seconds (user + system) the process family has used so far. */
export function cpuSeconds(pid) {
  let ticks = 0;
  for (const p of family(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {}
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds so far of one process's main thread and of all its other threads: the click writer, and V8's
 * and libuv's helpers (Node names them all `node`, so they are not told apart).
 */
export function threadCpu(pid) {
  const cpu = { main: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu[tid === String(pid) ? 'main' : 'others'] += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {} // a thread that ended between the listing and the read
  }
  return cpu;
}

/** Resident memory of the process family in MB. */
export function rssMb(pid) {
  let kb = 0;
  for (const p of family(pid)) {
    try {
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      kb += match ? Number(match[1]) : 0;
    } catch {}
  }
  return kb / 1024;
}

export async function stop(child, timeoutMs = 30_000) {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
