// `clicks_lost_kill`: redirects answered before a `kill -9` that are not counted after the restart
// (the click journal, docs/decisions/0007-click-journal.md, should make it 0).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { wrkCommand } from './generator.mjs';
import { stop } from './proc.mjs';

const run = promisify(execFile);
const AUTOCANNON = new URL('../load.mjs', import.meta.url).pathname;
const REPLAY_WAIT_MS = 30_000;

/** One load run in the background, so the server can be killed under it; resolves with what the generator saw answered. */
async function loadInBackground(generator, port, spec) {
  const full = { url: `http://127.0.0.1:${port}`, ...spec };
  if (generator === 'wrk') {
    const { stdout } = await run('wrk', wrkCommand(full), { encoding: 'utf8' });
    const r = JSON.parse(stdout.trim().split('\n').pop());
    return { ok: r.requests - r.status, unanswered: r.unanswered };
  }
  const { stdout } = await run('node', [AUTOCANNON, JSON.stringify(full)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return { ...JSON.parse(stdout), unanswered: 0 };
}

function recorded(db) {
  const sqlite = new Database(db.path, { readonly: true });
  try {
    return sqlite
      .prepare(`SELECT COALESCE(SUM(clicks), 0) AS n FROM click_summaries WHERE target_kind = 'link' AND target_id <> ?`)
      .get(db.statsLinkId).n;
  } finally {
    sqlite.close();
  }
}

/** Journal directories under `root`, adopted ones included: 1 once only the live process's own is left. */
function journals(dir) {
  if (!existsSync(dir)) return 0;
  const subdirs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return subdirs.reduce((n, e) => n + 1 + journals(`${dir}/${e.name}`), 0);
}

/**
 * Load on 1k links, SIGKILL half-way through, a restart on the same database, and the count once the
 * dead process's journal is replayed (its directory gone) and the new one stopped cleanly. As with
 * SIGTERM, wrk's requests in flight may be counted beyond its answers (`extra`), never fewer (`lost`).
 */
export async function benchKill({ db, server, generator, host, connections, seconds }) {
  const first = await server(db);
  const spec = { host, connections, duration: seconds, amount: seconds * 20_000, paths: { prefix: 'd', count: 1000 } };
  const result = loadInBackground(generator, first.port, spec);
  await sleep((seconds * 1000) / 2);
  first.child.kill('SIGKILL');
  await first.child.exited;
  const { ok, unanswered } = await result;
  const again = await server(db);
  const root = `${db.path}.journal`;
  const deadline = Date.now() + REPLAY_WAIT_MS;
  while (Date.now() < deadline && journals(root) > 1) await sleep(100);
  await stop(again.child);
  const counted = recorded(db);
  return { lost: Math.max(0, ok - counted), extra: Math.max(0, counted - ok), unanswered, served: ok };
}
