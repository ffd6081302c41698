// The victim's view during a flood: GET /health on a fixed schedule (open loop: one request every
// INTERVAL ms whatever the previous one did, so a stall counts for every request it delays), timed from
// when each request was due. Runs in its own process so the flooding client's own work is not measured.
// node bench/lib/probe.mjs PORT DURATION_MS [INTERVAL_MS] → {"count":…,"p50":…,"p99":…,"max":…,"errors":…}
import { Agent, request } from 'node:http';

const [port, durationMs, intervalMs = 10] = process.argv.slice(2).map(Number);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const latencies = [];
let errors = 0;

function probe(due) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) latencies.push(performance.now() - due);
        else errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end();
  });
}

const started = performance.now();
const pending = [];
for (let i = 0; ; i++) {
  const due = started + i * intervalMs;
  if (due - started >= durationMs) break;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  pending.push(probe(due));
}
await Promise.all(pending);
agent.destroy();
const sorted = latencies.sort((a, b) => a - b);
const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
process.stdout.write(JSON.stringify({ count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, errors }));
