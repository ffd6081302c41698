// Some of `npm run bench`'s redirect scenarios on their own, measured as bench/run.mjs measures them: a server on
// the seed's 1000 links of each kind, bare node:http as the baseline, alternated warm-up + REPS runs of 4 s with
// 50 connections, server CPU read once its last batch is written, medians. Prints each scenario's CPU per request
// (main thread and the others apart), the baseline's and the ratio (cpu_ratio, cpu_rules in the full bench).
//   node bench/scenarios.mjs [BUILD_DIR=.] [PREFIXES=d,r]      (d direct, t targeted, p parameters, r rules; env REPS=3)
// One server serves them in the order given, as in the full bench (where d, t, p then r run on one server).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, pickGenerator } from './lib/generator.mjs';
import { cpuSeconds, freePort, median, start, stop, threadCpu, waitForPort } from './lib/proc.mjs';

const build = resolve(process.argv[2] ?? '.');
const prefixes = (process.argv[3] ?? 'd,r').split(',');
const REPS = Number(process.env.REPS ?? 3);
const RUN = { amount: 80_000, duration: 4 };
const WARM_UP = { amount: 20_000, duration: 1 };
const SETTLE_MS = 1_500;
const HOST = 'bench.test';
const generator = pickGenerator();
const dir = mkdtempSync(join(tmpdir(), 'redirectory-scenarios-'));

process.chdir(build);
const path = join(dir, 'small.db');
execFileSync('node', ['bench/seed.mjs', path, '1000', '0']);
const basePort = await freePort();
const baseline = start('node', ['bench/baseline.mjs'], { PORT: String(basePort) });
await waitForPort(basePort);
const port = await freePort();
const server = start('node', ['dist/server.js'], {
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: `sqlite:${path}`,
  BASE_URL: `http://${HOST}`,
  TRUST_PROXY: 'true',
  LOG_LEVEL: 'warn',
});
await waitForPort(port);
const drive = (target, prefix, size = RUN) => load(generator, target, { host: HOST, connections: 50, ...size, paths: { prefix, count: 1000 } });

for (const prefix of prefixes) {
  drive(basePort, prefix, WARM_UP);
  drive(port, prefix, WARM_UP);
  await sleep(SETTLE_MS);
  const runs = { base: [], cpu: [], main: [], others: [] };
  for (let i = 0; i < REPS; i++) {
    const baseBefore = cpuSeconds(baseline.pid);
    const a = drive(basePort, prefix);
    runs.base.push(((cpuSeconds(baseline.pid) - baseBefore) * 1e6) / a.requests);
    const before = threadCpu(server.pid);
    const b = drive(port, prefix);
    await sleep(SETTLE_MS);
    const after = threadCpu(server.pid);
    const per = (key) => ((after[key] - before[key]) * 1e6) / b.requests;
    runs.main.push(per('main'));
    runs.others.push(per('others'));
    runs.cpu.push(per('main') + per('others'));
  }
  const [cpu, base] = [median(runs.cpu), median(runs.base)];
  console.log(
    `${prefix}: ${cpu.toFixed(1)} µs/req (main ${median(runs.main).toFixed(1)}, others ${median(runs.others).toFixed(1)}; runs ${runs.cpu.map((v) => v.toFixed(1)).join(' ')}), baseline ${base.toFixed(1)}, ratio ${(base / cpu).toFixed(2)}`,
  );
}
await stop(server);
await stop(baseline);
rmSync(dir, { recursive: true, force: true });
