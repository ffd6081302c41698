// The writer harness: CPU per batch of the click writer thread (aggregate + SQLite writes), fed batches
// shaped like the benchmark's wrk traffic (its user agents, referers and addresses, N visits over LINKS
// links, a second apart), through the build's own thread and its heap limits. The server's main thread
// waits meanwhile, so the process's CPU is the thread's. Compare builds by running each in turn:
//   node bench/writer.mjs [BUILD_DIR=.] [VISIT_LOG=1] [LINKS=1000]   (env N, WARM, TIMED, RULES)
// RULES=1 visits the seed's routed links r0… instead (ids LINKS+3, +6, …) with the rules bench's mix of
// rules: about 4 visits in 10 served a split variant (`split:0..2`, so also counted as a variant), the rest a rule.
// p10 is the steadiest figure on a shared machine: other load only ever adds to a batch's CPU.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { IPS, REFERERS, USER_AGENTS } from './lib/browser.mjs';

const [dir = '.', visitLog = '1', links = '1000'] = process.argv.slice(2);
const build = resolve(dir);
const LINKS = Number(links);
const {
  N = 17_000,
  WARM = 20,
  TIMED = 30,
  RULES = 0,
} = Object.fromEntries(['N', 'WARM', 'TIMED', 'RULES'].filter((k) => process.env[k]).map((k) => [k, Number(process.env[k])]));
const tmp = mkdtempSync(join(tmpdir(), 'redirectory-writer-'));
const path = join(tmp, 'writer.db');
// The build's own seed: links d0… get ids 1…LINKS, owned by account 1.
execFileSync('node', ['bench/seed.mjs', path, String(LINKS), '0'], { cwd: build });
const { threadBatchWriter } = await import(join(build, 'dist/clicks/click-writer-client.js'));
const { VisitBuffer } = await import(join(build, 'dist/clicks/visit-columns.js'));
const writer = threadBatchWriter({ path, secret: 'x'.repeat(32), visitLog: visitLog === '1' }, { error: console.error });

let state = 12345; // a fixed sequence, the same for every build
// Math.imul: a float product loses low bits, and the sequence then cycled after about 6,000 draws (6,336
// distinct links at LINKS=1000000).
const pick = (n) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) % n;
// Builds before the series took (kind, id, visit).
const withTime = VisitBuffer.prototype.append.length > 3;
const start = Date.now();
const RULE_MIX = ['split:0', 'split:0', 'split:1', 'split:2', 'rule:1', 'rule:3', 'rule:4', 'rule:5', 'rule:1', 'rule:3'];
function batch(b) {
  const buffer = new VisitBuffer();
  for (let i = 0; i < N; i++) {
    const visit = { ip: IPS[pick(IPS.length)], userAgent: USER_AGENTS[pick(USER_AGENTS.length)], referer: REFERERS[pick(REFERERS.length)] };
    const id = RULES ? LINKS + 3 * (1 + pick(1000)) : 1 + pick(LINKS);
    const rule = RULES ? RULE_MIX[pick(RULE_MIX.length)] : 'default';
    if (withTime) buffer.append('link', id, 1, visit, start + b * 1000 + (i * 1000) / N, rule);
    else buffer.append('link', id, visit);
  }
  return buffer.seal();
}

const batches = Array.from({ length: WARM + TIMED }, (_, b) => batch(b));
const ms = [];
for (let b = 0; b < batches.length; b++) {
  const before = process.cpuUsage();
  await writer.write(batches[b]);
  const used = process.cpuUsage(before);
  if (b >= WARM) ms.push((used.user + used.system) / 1000);
}
await writer.close();
rmSync(tmp, { recursive: true, force: true });
ms.sort((a, b) => a - b);
const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
const at = (q) => ms[Math.floor(q * (ms.length - 1))].toFixed(1);
console.log(
  `writer ${build} log=${visitLog} links=${LINKS}: CPU ms per batch of ${N} visits: p10 ${at(0.1)} median ${at(0.5)} mean ${mean.toFixed(1)} (${((mean * 1000) / N).toFixed(2)} µs a visit)`,
);
