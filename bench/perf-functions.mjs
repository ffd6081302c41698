// The server's CPU a request by function, sampled by `perf record` (cpu-clock) while wrk loads one kind of the seed's
// links: where a scenario's time goes, including what a read that misses the CPU's caches costs the function making
// it, which whole-server timings on a shared machine cannot resolve (docs/performance.md#held-destinations).
//   node bench/perf-functions.mjs BUILD_DIR PREFIX[,PREFIX…]   (d direct, t targeted, p parameters, r routed)
// env DURATION (seconds a prefix, 10), FUNCTIONS (a regular expression of JS function names to print, default the redirect's
// decide and route), JIT=1 (V8's jitdump, for `perf inject --jit` and `perf annotate` by instruction: the files
// land in BUILD_DIR). Needs perf and wrk; the server runs pinned as `npm run bench` pins it. Alternate builds run by run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { load } from './lib/generator.mjs';
import { BENCH_HOST, freePort, serverEnv, start, stop, waitForPort } from './lib/proc.mjs';

const build = resolve(process.argv[2] ?? '.');
const prefixes = (process.argv[3] ?? 'd,r').split(',');
const DURATION = Number(process.env.DURATION ?? 10);
const FUNCTIONS = new RegExp(`JS:\\*?(${process.env.FUNCTIONS ?? 'decide|firstHolding|route|passes'})\\b`);
const SAMPLE_HZ = 4000;
const dir = mkdtempSync(join(tmpdir(), 'redirectory-perf-'));
const db = join(dir, 'small.db');
execFileSync('node', ['bench/seed.mjs', db, '1000', '0'], { cwd: build });
process.chdir(build);
const port = await freePort();
const profiling = process.env.JIT === '1' ? ['--perf-prof'] : ['--perf-basic-prof'];
const server = start('node', [...profiling, 'dist/server.js'], serverEnv(port, db), { pin: true });
await waitForPort(port);
const drive = (prefix, duration) => load('wrk', port, { host: BENCH_HOST, connections: 50, duration, amount: 1, paths: { prefix, count: 1000 } });
for (const prefix of [...prefixes, ...prefixes]) drive(prefix, 3); // the JIT settles on every kind first

for (const prefix of prefixes) {
  const data = join(dir, `${prefix}.data`);
  const args = ['record', '-q', '-k', 'mono', '-e', 'cpu-clock', '-F', String(SAMPLE_HZ), '-o', data, '-p', String(server.pid)];
  const recorder = spawn('perf', args, { stdio: 'ignore' });
  await sleep(300);
  const { requests } = drive(prefix, DURATION);
  recorder.kill('SIGINT');
  await new Promise((done) => recorder.on('exit', done));
  const report = execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', 'symbol', '-n', '-q'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  let total = 0;
  const own = {};
  for (const line of report.split('\n')) {
    const sample = /^\s*[\d.]+%\s+(\d+)\s+\[.\]\s+(.*?)\s*$/.exec(line);
    if (!sample) continue;
    total += Number(sample[1]);
    const name = FUNCTIONS.exec(sample[2])?.[1];
    if (name) own[name] = (own[name] ?? 0) + Number(sample[1]);
  }
  const us = (samples) => ((samples * 1e6) / SAMPLE_HZ / requests).toFixed(3);
  const named = Object.entries(own).map(([name, samples]) => `${name} ${us(samples)}`);
  console.log(`${prefix} ${build}: µs a request, whole server ${us(total)}; own time ${named.join(', ') || 'none sampled'}`);
}
await stop(server);
rmSync(dir, { recursive: true, force: true });
