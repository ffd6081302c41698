// The writer harness (bench/writer.mjs) for two builds at once: each batch is written by A and by B in turn (the
// order alternating), so the machine's drift lands on both, and the per-batch difference is paired.
//   node bench/writer-pair.mjs BUILD_A BUILD_B      (env RULES=0 for the direct links' mix, N, TIMED)
// RULES (default 1) is writer.mjs's rules mix: the seed's routed links, about 4 visits in 10 served a split variant.
// The CPU read around a write is the process's: the main thread waits and the other build's thread is idle.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { IPS, REFERERS, USER_AGENTS } from './lib/browser.mjs';

const builds = process.argv.slice(2, 4).map((dir) => resolve(dir));
const {
  N = 17_000,
  TIMED = 40,
  RULES = 1,
} = Object.fromEntries(['N', 'TIMED', 'RULES'].filter((k) => process.env[k]).map((k) => [k, Number(process.env[k])]));
const WARM = 20;
const LINKS = 1000;
const RULE_MIX = ['split:0', 'split:0', 'split:1', 'split:2', 'rule:1', 'rule:3', 'rule:4', 'rule:5', 'rule:1', 'rule:3'];
const tmp = mkdtempSync(join(tmpdir(), 'redirectory-writer-pair-'));
const sides = [];
for (const [k, build] of builds.entries()) {
  const path = join(tmp, `writer-${k}.db`);
  execFileSync('node', ['bench/seed.mjs', path, String(LINKS), '0'], { cwd: build });
  const { threadBatchWriter } = await import(join(build, 'dist/clicks/click-writer-client.js'));
  const { VisitBuffer } = await import(join(build, 'dist/clicks/visit-columns.js'));
  const writer = threadBatchWriter({ path, secret: 'x'.repeat(32), visitLog: true }, { error: console.error });
  sides.push({ writer, VisitBuffer, ms: [] });
}

const start = Date.now();
/** Batch b, the same visits for both builds. */
function batch(VisitBuffer, b) {
  let state = 12345 + b;
  const pick = (n) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const buffer = new VisitBuffer();
  for (let i = 0; i < N; i++) {
    const visit = { ip: IPS[pick(IPS.length)], userAgent: USER_AGENTS[pick(USER_AGENTS.length)], referer: REFERERS[pick(REFERERS.length)] };
    const id = RULES ? LINKS + 3 * (1 + pick(1000)) : 1 + pick(LINKS);
    buffer.append('link', id, 1, visit, start + b * 1000 + (i * 1000) / N, RULES ? RULE_MIX[pick(RULE_MIX.length)] : 'default');
  }
  return buffer.seal();
}

for (let b = 0; b < WARM + TIMED; b++) {
  for (const k of b % 2 ? [1, 0] : [0, 1]) {
    const side = sides[k];
    const sealed = batch(side.VisitBuffer, b);
    const before = process.cpuUsage();
    await side.writer.write(sealed);
    const used = process.cpuUsage(before);
    if (b >= WARM) side.ms.push((used.user + used.system) / 1000);
  }
}
for (const side of sides) await side.writer.close();
rmSync(tmp, { recursive: true, force: true });
const at = (values, q) => [...values].sort((x, y) => x - y)[Math.floor(q * (values.length - 1))].toFixed(1);
const diffs = sides[1].ms.map((ms, i) => ms - sides[0].ms[i]);
const [a, b] = sides.map((s) => `p10 ${at(s.ms, 0.1)} median ${at(s.ms, 0.5)}`);
console.log(`CPU ms a batch of ${N} visits: A ${a}; B ${b}; B − A paired median ${at(diffs, 0.5)} (p25 ${at(diffs, 0.25)}, p75 ${at(diffs, 0.75)})`);
