// Compares two builds' CPU per redirect (the main thread, and the others: click writer, GC helpers) with both
// under load at the same time, so the machine's drift (the other tenants of a shared host, the CPU's clock)
// lands on both alike and the per-window difference is paired.
// `node bench/paired.mjs BUILD_A BUILD_B` (each a checkout with dist/ built and node_modules); env WINDOWS
// (default 10), ENV_A / ENV_B (JSON of extra env for that server), PREFIX (default d: the direct links; t targeted,
// p with parameters, r routed: 6 rules and a 3-way split, as bench/seed.mjs makes them), PREFIX_A / PREFIX_B (one
// side's own: `PREFIX_A=d PREFIX_B=r node bench/paired.mjs . .` prices routing on one build). Needs wrk.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { wrkCommand } from './lib/generator.mjs';
import { freePort, median, serverEnv, start, stop, threadCpu, waitForPort } from './lib/proc.mjs';

const [A, B] = process.argv.slice(2, 4).map((dir) => resolve(dir ?? '.'));
const WINDOWS = Number(process.env.WINDOWS ?? 10);
const SECONDS = 4;
const PREFIX = process.env.PREFIX ?? 'd';
const PREFIXES = [process.env.PREFIX_A ?? PREFIX, process.env.PREFIX_B ?? PREFIX];
const SETTLE_MS = 1_500; // the last batch of a window is written before its CPU is read
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'redirectory-paired-'));

/** A build's server on 1000 seeded direct links, seeded by the build's own script. */
async function server(build, name, extraEnv) {
  const path = join(dir, `${name}.db`);
  execFileSync('node', ['bench/seed.mjs', path, '1000', '0'], { cwd: build });
  const port = await freePort();
  process.chdir(build); // the server is started in its own checkout
  const child = start('node', [join(build, 'dist/server.js')], serverEnv(port, path, extraEnv));
  await waitForPort(port);
  return { child, port };
}

/** One wrk a server, both at once: answered requests of a run over 1000 links of a prefix, the benchmark's traffic. */
async function wrk(port, seconds, prefix) {
  const spec = {
    url: `http://127.0.0.1:${port}`,
    host: 'bench.test',
    threads: 1,
    connections: 25,
    duration: seconds,
    paths: { prefix, count: 1000 },
  };
  const { stdout } = await run('wrk', wrkCommand(spec));
  return JSON.parse(stdout.trim().split('\n').pop()).requests;
}

const servers = [await server(A, 'a', JSON.parse(process.env.ENV_A ?? '{}')), await server(B, 'b', JSON.parse(process.env.ENV_B ?? '{}'))];
await Promise.all(servers.map((s, k) => wrk(s.port, 2, PREFIXES[k]))); // warm-up: JIT and the first aggregate rows
await sleep(SETTLE_MS);
const diffs = { main: [], others: [], total: [] };
for (let i = 0; i < WINDOWS; i++) {
  const before = servers.map((s) => threadCpu(s.child.pid));
  const requests = await Promise.all(servers.map((s, k) => wrk(s.port, SECONDS, PREFIXES[k])));
  await sleep(SETTLE_MS);
  const us = servers.map((s, k) => {
    const after = threadCpu(s.child.pid);
    const per = (key) => ((after[key] - before[k][key]) * 1e6) / requests[k];
    return { main: per('main'), others: per('others') };
  });
  for (const key of ['main', 'others']) diffs[key].push(us[1][key] - us[0][key]);
  diffs.total.push(us[1].main + us[1].others - us[0].main - us[0].others);
  console.log(
    `window ${i + 1}: A ${us[0].main.toFixed(1)} + ${us[0].others.toFixed(1)} µs/req (${requests[0]} req), B ${us[1].main.toFixed(1)} + ${us[1].others.toFixed(1)} µs/req (${requests[1]} req)`,
  );
}
await Promise.all(servers.map((s) => stop(s.child)));
rmSync(dir, { recursive: true, force: true });
const show = (values) => `${median(values).toFixed(1)} (windows: ${values.map((v) => v.toFixed(1)).join(' ')})`;
console.log(
  `B − A, median µs a request: main thread ${show(diffs.main)}; other threads (writer, GC) ${show(diffs.others)}; whole server ${show(diffs.total)}`,
);
