// Some of `npm run bench`'s redirect scenarios on their own, measured as bench/run.mjs measures them: a server on
// the seed's 1000 links of each kind, bare node:http as the baseline, a warm-up then REPS reps of one baseline run
// and one run a scenario (4 s, 50 connections; forwards, then backwards), server CPU read once its last batch is
// written, medians. Prints the baseline's CPU per request, each scenario's (main thread and the others apart) and
// its ratio against the one baseline (cpu_ratio, cpu_rules in the full bench, which runs d,t,p,r so).
//   node bench/scenarios.mjs [BUILD_DIR=.] [PREFIXES=d,r]      (d direct, t targeted, p parameters, r rules; env REPS=5)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, pickGenerator } from './lib/generator.mjs';
import { BENCH_HOST, cpuSeconds, freePort, median, serverEnv, start, stop, threadCpu, waitForPort } from './lib/proc.mjs';

const build = resolve(process.argv[2] ?? '.');
const prefixes = (process.argv[3] ?? 'd,r').split(',');
const REPS = Number(process.env.REPS ?? 5);
const RUN = { amount: 80_000, duration: 4 };
const WARM_UP = { amount: 20_000, duration: 1 };
const SETTLE_MS = 1_500;
const HOST = BENCH_HOST;
const generator = pickGenerator();
const dir = mkdtempSync(join(tmpdir(), 'redirectory-scenarios-'));

process.chdir(build);
const path = join(dir, 'small.db');
execFileSync('node', ['bench/seed.mjs', path, '1000', '0']);
const basePort = await freePort();
const baseline = start('node', ['bench/baseline.mjs'], { PORT: String(basePort) }, { pin: true });
await waitForPort(basePort);
const port = await freePort();
const server = start('node', ['dist/server.js'], serverEnv(port, path), { pin: true });
await waitForPort(port);
const drive = (target, prefix, size = RUN) => load(generator, target, { host: HOST, connections: 50, ...size, paths: { prefix, count: 1000 } });

// As `npm run bench` does (compareSet): one baseline sample for all, each rep forwards then backwards.
const sides = ['base', ...prefixes];
const runs = Object.fromEntries(sides.map((side) => [side, { cpu: [], main: [], others: [] }]));
for (const prefix of prefixes) drive(port, prefix, WARM_UP);
drive(basePort, prefixes[0], WARM_UP);
await sleep(SETTLE_MS);
for (let i = 0; i < REPS; i++) {
  for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
    if (side === 'base') {
      const before = cpuSeconds(baseline.pid);
      const a = drive(basePort, prefixes[0]);
      runs.base.cpu.push(((cpuSeconds(baseline.pid) - before) * 1e6) / a.requests);
      continue;
    }
    const before = threadCpu(server.pid);
    const b = drive(port, side);
    await sleep(SETTLE_MS);
    const after = threadCpu(server.pid);
    const per = (key) => ((after[key] - before[key]) * 1e6) / b.requests;
    runs[side].main.push(per('main'));
    runs[side].others.push(per('others'));
    runs[side].cpu.push(per('main') + per('others'));
  }
}
const base = median(runs.base.cpu);
console.log(`baseline: ${base.toFixed(1)} µs/req (runs ${runs.base.cpu.map((v) => v.toFixed(1)).join(' ')})`);
for (const prefix of prefixes) {
  const r = runs[prefix];
  const cpu = median(r.cpu);
  console.log(
    `${prefix}: ${cpu.toFixed(1)} µs/req (main ${median(r.main).toFixed(1)}, others ${median(r.others).toFixed(1)}; runs ${r.cpu.map((v) => v.toFixed(1)).join(' ')}), ratio ${(base / cpu).toFixed(2)}`,
  );
}
await stop(server);
await stop(baseline);
rmSync(dir, { recursive: true, force: true });
