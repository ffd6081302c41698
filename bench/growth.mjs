// The 1k/1M part of `npm run bench` for two builds at once, alternated run by run: baseline, A, B.
//   node bench/growth.mjs BUILD_A BUILD_B [reps=3]   (each a checkout with dist/ built; env ENV_A / ENV_B: JSON of extra env)
// Prints per scenario and build the CPU µs per request and its ratio to the bare 302, then cpu_growth and
// cpu_zipf per build, RSS after each 1M run, and how long each 1M server took from spawn to its first answer.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, pickGenerator } from './lib/generator.mjs';
import { BENCH_HOST, cpuSeconds, freePort, median, rssMb, serverEnv, start, stop, waitForPort } from './lib/proc.mjs';

const [A, B] = process.argv.slice(2, 4).map((dir) => resolve(dir));
const REPS = Number(process.argv[4] ?? 3);
const GENERATOR = pickGenerator();
const RUN = { connections: 50, amount: 80_000, duration: 4 };
const WARM = { ...RUN, amount: 20_000, duration: 1 };
const SETTLE_MS = 1_500;
const HOST = BENCH_HOST;
const dir = mkdtempSync(join(tmpdir(), 'redirectory-growth-'));

const seeded = {};
function seed(links, clicks) {
  const path = join(dir, `seed-${links}.db`);
  execFileSync('node', ['bench/seed.mjs', path, String(links), String(clicks)], { cwd: B });
  seeded[links] = path;
}

async function server(build, links, env) {
  const path = join(dir, `${build === A ? 'a' : 'b'}-${links}.db`);
  copyFileSync(seeded[links], path);
  const port = await freePort();
  const began = performance.now();
  process.chdir(build);
  const child = start('node', [join(build, 'dist/server.js')], serverEnv(port, path, { RATE_LIMIT_MAX: '1000000000', ...env }));
  await waitForPort(port, 120_000);
  return { child, port, startS: (performance.now() - began) / 1000, settles: true };
}

/** CPU seconds of the main thread alone (the click writer and V8's helpers are the rest). */
function mainCpu(pid) {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measure(target, spec) {
  const [before, mainBefore] = [cpuSeconds(target.child.pid), mainCpu(target.child.pid)];
  const result = load(GENERATOR, target.port, { host: HOST, ...RUN, ...spec });
  const rss = rssMb(target.child.pid);
  if (target.settles) await sleep(SETTLE_MS);
  const per = (seconds) => (seconds * 1e6) / Math.max(result.requests, 1);
  return { cpuUs: per(cpuSeconds(target.child.pid) - before), mainUs: per(mainCpu(target.child.pid) - mainBefore), rss, rps: result.rps };
}

seed(1000, 0);
seed(1_000_000, 0);
const basePort = await freePort();
const baseline = { child: start('node', [join(B, 'bench/baseline.mjs')], { PORT: String(basePort) }), port: basePort, settles: false };
await waitForPort(basePort);
const env = { [A]: JSON.parse(process.env.ENV_A ?? '{}'), [B]: JSON.parse(process.env.ENV_B ?? '{}') };
const servers = {};
for (const build of [A, B]) servers[build] = { small: await server(build, 1000, env[build]), big: await server(build, 1_000_000, env[build]) };
await sleep(20_000); // the resident index fills in the background; both builds wait alike

const scenarios = [
  ['1k uniform', 'small', { paths: { prefix: 'd', count: 1000 } }],
  ['1M uniform', 'big', { paths: { prefix: 'd', count: 1_000_000 } }],
  ['1M zipf', 'big', { paths: { prefix: 'd', count: 1_000_000, zipf: true } }],
];
const results = {};
for (const [name, size, spec] of scenarios) {
  const sides = [baseline, servers[A][size], servers[B][size]];
  for (const side of sides) load(GENERATOR, side.port, { host: HOST, ...WARM, ...spec });
  const runs = sides.map(() => []);
  for (let i = 0; i < REPS; i++) for (const [k, side] of sides.entries()) runs[k].push(await measure(side, spec));
  const base = median(runs[0].map((r) => r.cpuUs));
  results[name] = [A, B].map((build, k) => {
    const cpuUs = median(runs[k + 1].map((r) => r.cpuUs));
    const mainUs = median(runs[k + 1].map((r) => r.mainUs));
    return {
      build,
      cpuUs,
      mainUs,
      base,
      ratio: base / cpuUs,
      rss: Math.max(...runs[k + 1].map((r) => r.rss)),
      rps: median(runs[k + 1].map((r) => r.rps)),
    };
  });
  for (const r of results[name])
    console.log(
      `${name.padEnd(12)} ${r.build.padEnd(32)} ${r.cpuUs.toFixed(1)} µs (main ${r.mainUs.toFixed(1)}, base ${r.base.toFixed(1)}) ratio ${r.ratio.toFixed(2)} rss ${r.rss.toFixed(0)} MB rps ${r.rps.toFixed(0)}`,
    );
}
for (const [k, build] of [A, B].entries()) {
  const small = results['1k uniform'][k].ratio;
  console.log(
    `${build}: cpu_growth ${(results['1M uniform'][k].ratio / small).toFixed(2)} cpu_zipf ${(results['1M zipf'][k].ratio / small).toFixed(2)} ` +
      `rss_1M ${Math.max(results['1M uniform'][k].rss, results['1M zipf'][k].rss).toFixed(0)} MB start_1M ${servers[build].big.startS.toFixed(2)} s`,
  );
}
for (const build of [A, B]) for (const s of Object.values(servers[build])) await stop(s.child);
await stop(baseline.child);
rmSync(dir, { recursive: true, force: true });
