// Instructions a redirect costs, counted by valgrind's callgrind instead of timed: the count does not move
// with the machine's drift. It counts user-space instructions only (not the kernel's socket work, not cache
// misses). Runs of one build agree within about 2%; a build without docs/performance.md#tick-object-maps
// sometimes lands about 25,000 higher, where V8's runtime defines the tick objects' keys.
// `node bench/instructions.mjs BUILD [WARM] [MEASURED]` (a checkout with dist/ built; needs valgrind; env PREFIX
// picks the seed's links, d by default): a server on 1000 seeded links, WARM requests to warm the JIT, then MEASURED counted ones. Prints instructions
// a request per thread (the main thread is thread 1); KEEP=1 keeps callgrind's files, with the count of
// every function and call. Takes about two minutes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IPS, LANGUAGES, REFERERS, USER_AGENTS } from './lib/browser.mjs';
import { freePort } from './lib/proc.mjs';

const build = resolve(process.argv[2] ?? '.');
const [WARM, MEASURED] = [Number(process.argv[3] ?? 6000), Number(process.argv[4] ?? 4000)];
const CONNECTIONS = 8;
const PREFIX = process.env.PREFIX ?? 'd'; // d direct, t targeted, p parameters, r routed (bench/seed.mjs)
const dir = mkdtempSync(join(tmpdir(), 'redirectory-instructions-'));
execFileSync('node', ['bench/seed.mjs', join(dir, 'db.sqlite'), '1000', '0'], { cwd: build });
const port = await freePort();
const HOST = '127.0.0.1';
// valgrind names its control pipes after $HOST, which the server's own HOST setting overrides: callgrind_control
// is given the same.
const env = {
  ...process.env,
  PORT: String(port),
  HOST,
  DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
  BASE_URL: 'http://bench.test',
  TRUST_PROXY: 'true',
  LOG_LEVEL: 'warn',
  HEALTH_INTERVAL_S: '0', // nothing sent outside the machine (bench/lib/proc.mjs)
};
const server = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--smc-check=all-non-file',
    '--separate-threads=yes',
    `--callgrind-out-file=${join(dir, 'cg.out')}`,
    'node',
    join(build, 'dist/server.js'),
  ],
  { cwd: build, env, stdio: ['ignore', 'ignore', openSync(join(dir, 'valgrind.log'), 'w')] },
);
// A run that fails (the server too slow to start on a loaded machine, a refused connection) must not leave
// the valgrind server running: it held a core and memory long after the script was gone.
process.on('exit', () => server.kill('SIGKILL'));
const control = (command) => execFileSync('callgrind_control', [command, String(server.pid)], { env: { ...process.env, HOST }, stdio: 'ignore' });

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
let sent = 0;
/** The benchmark's browser headers, chosen by the request's number: both builds get the same sequence. */
function redirect() {
  const i = sent++;
  const headers = {
    host: 'bench.test',
    'user-agent': USER_AGENTS[i % USER_AGENTS.length],
    'accept-language': LANGUAGES[(i >> 2) % LANGUAGES.length],
    'x-forwarded-for': IPS[(i >> 4) % IPS.length],
  };
  const referer = REFERERS[(i >> 3) % REFERERS.length];
  if (referer) headers.referer = referer;
  return new Promise((done, fail) => {
    const req = http.request({ host: HOST, port, path: `/${PREFIX}${(i * 7919) % 1000}`, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 302 ? done() : fail(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', fail).end();
  });
}

async function load(count) {
  let left = count;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (left-- > 0) await redirect();
    }),
  );
}

for (let attempt = 0; ; attempt++) {
  try {
    await redirect();
    break;
  } catch (error) {
    if (attempt > 300) throw error;
    await sleep(1000);
  }
}
await load(WARM);
await sleep(3000); // the warm-up's last click batch
control('-z');
await load(MEASURED);
await sleep(3000); // the counted requests' click batch is written and counted too
control('-d');
server.kill('SIGKILL');
await sleep(500);
const threads = [];
for (const file of readdirSync(dir).filter((f) => /^cg\.out\.\d+-\d+$/.test(f))) {
  const text = readFileSync(join(dir, file), 'utf8');
  const thread = Number(text.match(/^thread: (\d+)/m)?.[1]);
  const total = Number(text.match(/^(?:summary|totals): (\d+)/m)?.[1] ?? 0);
  if (total > 0) threads.push({ thread, perRequest: total / MEASURED });
}
if (process.env.KEEP === '1') console.log(`callgrind files kept in ${dir}`);
else rmSync(dir, { recursive: true, force: true });
threads.sort((a, b) => a.thread - b.thread);
const counts = threads.map((t) => `thread ${t.thread} ${Math.round(t.perRequest)}`).join(', ');
console.log(`instructions a request, ${MEASURED} redirects at 1k links: ${counts}`);
