// The `abuse` scenario: four floods that once stalled every client (issue 23, section 4), each for a few
// seconds against a fresh server while bench/lib/probe.mjs times GET /health from its own process.
// Needs a build. Standalone, against any build (e.g. an older commit's worktree, for a before/after):
//   node bench/lib/abuse.mjs [SERVER_DIR] → one line per flood, then `abuse: worst p99 …`
// ABUSE_FLOODS=import_max,openapi runs only those; ABUSE_SECONDS sets each flood's length.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, rssMb, start, waitForPort } from './proc.mjs';

const MB = 1024 * 1024;
const PROBE = fileURLToPath(new URL('./probe.mjs', import.meta.url));
/** The default cap of the build that has one (IMPORT_MAX_BYTES); older builds took up to 50 MB. */
const IMPORT_MAX = 20 * MB;

/** `longurl` then "x" rows: Bitly's format by its header, every row refused, as many rows as fit. */
function xRows(bytes) {
  const header = Buffer.from('longurl\n');
  return Buffer.concat([header, Buffer.alloc(bytes - header.length, 'x\n')]);
}

/** A realistic file of about `bytes`: one link per row, as the import benchmark writes them. */
function linkRows(bytes, tag) {
  const lines = ['longurl,alias,title'];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `https://example.com/${tag}/${i}?utm_source=newsletter&ref=import,,Article ${i}: a title of the usual length`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** One HTTP exchange on a connection of its own; answers the status (0 when the server hung up) and the body. */
function send(port, { method = 'GET', path, headers = {}, body }) {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, connection: 'close' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', () => done({ status: 0 }));
    });
    req.on('error', () => done({ status: 0 }));
    req.end(body);
  });
}

/** Runs `once` in `loops` parallel loops until the deadline; counts answers by status. */
async function loop(loops, until, once) {
  const statuses = {};
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (performance.now() < until) {
        const { status } = await once();
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const csvPost = (key, body) => ({
  method: 'POST',
  path: '/api/urls/import',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
  body,
});

/** The floods; each gets a fresh server and answers what it saw besides the probe's figures. */
const FLOODS = {
  /** A 50 MB file, again and again: today's build refuses it from its Content-Length. */
  import_50mb: async ({ port, key, until }) => {
    const body = xRows(50 * MB);
    return { statuses: await loop(1, until, () => send(port, csvPost(key, body))) };
  },
  /** One import of the largest file accepted, 10M rows that each fail: the job must yield and show progress. */
  import_max: async ({ port, key, until }) => {
    const started = performance.now();
    const { status, body } = await send(port, csvPost(key, xRows(IMPORT_MAX)));
    if (status !== 200) return { statuses: { [status]: 1 } };
    const id = JSON.parse(body).data.id;
    let progressMs = null;
    while (performance.now() < until) {
      const job = JSON.parse((await send(port, { path: `/api/urls/import/${id}`, headers: { authorization: `Bearer ${key}` } })).body).data;
      if (progressMs === null && (job.processed > 0 || job.total !== null || job.done + job.failed > 0)) progressMs = performance.now() - started;
      await sleep(100);
    }
    return { statuses: { [status]: 1 }, progressMs };
  },
  /** 16 unauthenticated loops over the whole OpenAPI document, half asking for it compressed, none revalidating. */
  openapi: async ({ port, until }) => ({
    statuses: await loop(
      16,
      until,
      (() => {
        let n = 0;
        return () => send(port, { path: '/api/openapi.json', headers: { 'accept-encoding': n++ % 2 ? 'br, gzip' : 'identity' } });
      })(),
    ),
  }),
  /** 4 parallel bulk calls of 1000 password-protected links each, from an account whose budget allows them. */
  bulk_passwords: async ({ port, key, until }) => {
    const urls = Array.from({ length: 1000 }, (_, i) => ({ url: `https://example.com/locked/${i}`, password: `secret-${i}` }));
    const body = JSON.stringify({ urls });
    return {
      statuses: await loop(4, until, () =>
        send(port, { method: 'POST', path: '/api/urls/bulk', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body }),
      ),
    };
  },
  /** 6 concurrent imports from one account, again and again (5 MB of real links each): one job may run. */
  imports_6: async ({ port, key, until }) => {
    const files = Array.from({ length: 6 }, (_, i) => linkRows(IMPORT_MAX / 4, `f${i}`));
    let n = 0;
    return { statuses: await loop(6, until, () => send(port, csvPost(key, files[n++ % 6]))) };
  },
};

async function runFlood(serverDir, seeded, name, seconds) {
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-abuse-'));
  const db = join(dir, 'abuse.db');
  copyFileSync(seeded.path, db);
  const port = await freePort();
  const child = start('node', [join(serverDir, 'dist/server.js')], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${db}`,
    BASE_URL: 'http://bench.test',
    LOG_LEVEL: 'error',
    RATE_LIMIT_MAX: '1000000000',
  });
  try {
    await waitForPort(port);
    await send(port, { path: '/api/openapi.json' }); // what a first visit builds is not the flood's cost
    const rssBefore = rssMb(child.pid);
    const probe = new Promise((done) => {
      const p = spawn('node', [PROBE, String(port), String(seconds * 1000)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.on('data', (c) => {
        out += c;
      });
      p.on('exit', () => done(JSON.parse(out)));
    });
    const seen = await FLOODS[name]({ port, key: seeded.apiKey, until: performance.now() + seconds * 1000 });
    const health = await probe;
    return { name, ...health, ...seen, rssMb: rssMb(child.pid) - rssBefore };
  } finally {
    child.kill('SIGKILL'); // a flooded job need not end gracefully
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every flood for `seconds` each against the build in `serverDir`; prints a line per flood and answers the worst p99. */
export async function benchAbuse(serverDir, seconds) {
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-abuse-seed-'));
  const path = join(dir, 'seed.db');
  const seeded = { path, ...JSON.parse(execFileSync('node', [join(serverDir, 'bench/seed.mjs'), path, '0'], { encoding: 'utf8' })) };
  const results = [];
  try {
    const only = process.env.ABUSE_FLOODS?.split(',');
    for (const name of Object.keys(FLOODS).filter((n) => !only || only.includes(n))) {
      const r = await runFlood(serverDir, seeded, name, seconds);
      results.push(r);
      const extra =
        r.progressMs === undefined ? '' : `, job progress seen after ${r.progressMs === null ? 'never' : `${(r.progressMs / 1000).toFixed(1)} s`}`;
      console.log(
        `abuse ${name.padEnd(15)} /health p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms ` +
          `(${r.count} probes, ${r.errors} failed); answers ${JSON.stringify(r.statuses)}; RSS +${r.rssMb.toFixed(0)} MB${extra}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const worst = Math.max(...results.map((r) => r.p99));
  console.log(`abuse: ${results.map((r) => `${r.name}=${r.p99.toFixed(1)}`).join(' ')} (p99 ms of /health, ${seconds} s each)`);
  return worst;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const serverDir = resolve(process.argv[2] ?? '.');
  const worst = await benchAbuse(serverDir, Number(process.env.ABUSE_SECONDS ?? (process.env.BENCH_QUICK === '1' ? 2.5 : 10)));
  console.log(`abuse: worst p99 ${worst.toFixed(1)} ms`);
}
