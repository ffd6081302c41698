// Time from `npm start` to the first 200 on /health, on this checkout as it is (SQLite, a fresh database each run).
//   node bench/start.mjs [runs=3] [together=1] [checkout=.] [npm|node]
// together=2 starts two at once and times both; another checkout measures its own `npm start` (e.g. an older
// commit's, in a `git worktree`); `node` times `node dist/server.js` alone, the floor.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const RUNS = Number(process.argv[2] ?? 3);
const TOGETHER = Number(process.argv[3] ?? 1);
const TIMEOUT_MS = 180_000;
const ROOT = process.argv[4] ?? join(import.meta.dirname, '..');
const COMMAND = process.argv[5] === 'node' ? ['node', ['dist/server.js']] : ['npm', ['start']];

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function healthy(port) {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200;
  } catch {
    return false;
  }
}

/** One `npm start` in a process group of its own (npm, its shell, node), timed until /health answers 200, then stopped. */
async function timeStart(dir, index) {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, `start-${index}.db`)}`, LOG_LEVEL: 'error' };
  const began = performance.now();
  const child = spawn(COMMAND[0], COMMAND[1], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  try {
    while (!(await healthy(port))) {
      if (exited) throw new Error('npm start exited before serving');
      if (performance.now() - began > TIMEOUT_MS) throw new Error(`npm start did not serve within ${TIMEOUT_MS} ms`);
      await sleep(25);
    }
    return (performance.now() - began) / 1000;
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    while (!exited) await sleep(25);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'redirectory-start-'));
try {
  for (let run = 1; run <= RUNS; run++) {
    // allSettled: every start is stopped before the report, also when another one failed.
    const results = await Promise.allSettled(Array.from({ length: TOGETHER }, (_, i) => timeStart(dir, `${run}-${i}`)));
    const shown = results.map((r) => (r.status === 'fulfilled' ? `${r.value.toFixed(2)} s` : `FAILED (${r.reason.message})`));
    console.log(`run ${run}: ${shown.join(', ')} to the first 200 on /health`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
