import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { ensureBuilt } from './helpers/build.js';
import { addLinkOn, clicksOn, send, startNode, type NodeProcess } from './helpers/cluster.js';
import { redirectLoad } from './helpers/load.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { TEST_HOST } from './helpers/server.js';

/**
 * The click journal (docs/decisions/0007-click-journal.md): a redirect answered before a `kill -9` is
 * counted once the node is started again on the same database, and never twice. On SQLite the journal
 * is the default one beside the database file; on PostgreSQL a directory of this test's own.
 */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const VISIT = { host: TEST_HOST, 'user-agent': BROWSER };
const LANES = 12;

let db: ProcessDb;
let key: string;
let root: string;
let scratch: string;
const nodes: NodeProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  scratch = mkdtempSync(join(tmpdir(), 'redirectory-journal-'));
  const pg = process.env.DATABASE_URL?.startsWith('postgres');
  db = await processDb({ RATE_LIMIT_MAX: '1000000', ...(pg ? { CLICK_JOURNAL_DIR: join(scratch, 'journal') } : {}) });
  root = pg ? join(scratch, 'journal') : `${db.env.DATABASE_URL!.slice('sqlite:'.length)}.journal`;
  key = await db.withCtx(async (ctx) => (await createUser(ctx, { email: `journal${process.pid}@example.com` })).apiKey);
}, 120_000);

afterAll(async () => {
  for (const node of nodes) node.kill();
  await Promise.all(nodes.map((n) => n.exited));
  await db?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function start(name: string, env: Record<string, string> = {}): Promise<NodeProcess> {
  const node = await startNode(name, { ...db.env, ...env }, { entry: 'dist' });
  nodes.push(node);
  return node;
}

/** The journal directories under the root, adopted ones (being replayed) included: one per process not finished with its own. */
const journals = (dir = root): string[] =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name, ...journals(join(dir, e.name))] : [])) : [];

/** Waits until the restarted node (`own` serving processes) has replayed every journal but theirs, then reads the count. */
async function countedAfterReplay(node: NodeProcess, id: number, atLeast: number, own = 1): Promise<number> {
  for (let i = 0; i < 300 && (journals().length > own || (await clicksOn(node, key, id)) < atLeast); i++) await sleep(100);
  expect(journals(), node.output()).toHaveLength(own);
  await sleep(300); // a batch counted twice would show by now: replay is over and the node is idle
  return clicksOn(node, key, id);
}

/**
 * Under load, with the segments of committed batches put back as if the node had died between a
 * commit and the segment's deletion: the restart counts every answered redirect, and those batches
 * (skipped by their committed mark) not again. A redirect whose answer was on its way when the kill
 * came may count too: at most one per client, as each stops at its first failure.
 */
it('SIGKILL under redirect load: every answered redirect is counted once after the restart', async () => {
  const node = await start('kill', { CLICK_FLUSH_MS: '200' });
  const id = await addLinkOn(node, key, 'journalload');
  const [own] = journals();
  const kept = join(scratch, 'kept');
  mkdirSync(kept);
  const load = redirectLoad(node.url, '/journalload', VISIT, LANES);
  // Until some batches were committed (their segments deleted) on a busy machine too.
  for (let i = 0; i < 25 || (committedSince(join(root, own!), kept) < 2 && i < 300); i++) {
    await sleep(100);
    keepSegments(join(root, own!), kept);
  }
  node.kill();
  await node.exited;
  const outcomes = await load.done;
  const served = outcomes.filter((o) => o.status === 302).length;
  const unanswered = outcomes.filter((o) => o.status === null).length;
  expect(outcomes.length).toBe(served + unanswered);
  expect(unanswered).toBeLessThanOrEqual(LANES);
  const restored = restoreCommitted(join(root, own!), kept);
  expect(restored).toBeGreaterThanOrEqual(2);

  const after = await start('kill-after');
  const counted = await countedAfterReplay(after, id, served);
  expect(await after.stop()).toBe(0); // a clean stop leaves no journal behind
  console.log(`SIGKILL with journal: ${counted} counted of ${served} answered (+${unanswered} in flight); ${restored} committed segments put back`);
  expect(counted).toBeGreaterThanOrEqual(served);
  expect(counted).toBeLessThanOrEqual(served + unanswered);
  expect(journals()).toEqual([]);
}, 90_000);

/** Right after a batch is committed, with nothing in flight: exactly the answered redirects count. */
it('SIGKILL right after a flush: the count is exactly the redirects answered', async () => {
  const node = await start('flushed');
  const id = await addLinkOn(node, key, 'journalflush');
  let answered = 0;
  for (let i = 0; i < 40; i++) {
    const res = await send(node.url, 'GET', '/journalflush', { headers: VISIT });
    if (res.status === 302) answered += 1;
  }
  expect(answered).toBe(40);
  while ((await clicksOn(node, key, id)) < answered) await sleep(50);
  for (let i = 0; i < 7; i++) expect((await send(node.url, 'GET', '/journalflush', { headers: VISIT })).status).toBe(302);
  node.kill();
  await node.exited;
  const after = await start('flushed-after');
  expect(await countedAfterReplay(after, id, answered + 7)).toBe(answered + 7);
  expect(await after.stop()).toBe(0); // the next test counts the journals left
}, 90_000);

/**
 * WORKERS=2, every process killed under load: two journals are left, and the two workers of the restart
 * race to take them over (a rename each); every answered redirect counts once.
 */
it('SIGKILL of every WORKERS=2 process: the restarted workers count each answered redirect once', async () => {
  const node = await start('workers', { WORKERS: '2', CLICK_FLUSH_MS: '200' });
  const id = await addLinkOn(node, key, 'journalworkers');
  const load = redirectLoad(node.url, '/journalworkers', VISIT, LANES);
  await sleep(1500);
  const workers = childrenOf(node.proc.pid!);
  expect(workers).toHaveLength(2);
  process.kill(node.proc.pid!, 'SIGSTOP'); // the primary must not fork replacements meanwhile
  for (const pid of workers) process.kill(pid, 'SIGKILL');
  node.kill();
  await node.exited;
  const outcomes = await load.done;
  const served = outcomes.filter((o) => o.status === 302).length;
  const unanswered = outcomes.filter((o) => o.status === null).length;
  expect(unanswered).toBeLessThanOrEqual(LANES);
  expect(journals()).toHaveLength(2);

  const after = await start('workers-after', { WORKERS: '2' });
  const counted = await countedAfterReplay(after, id, served, 2);
  expect(await after.stop()).toBe(0);
  console.log(`SIGKILL of two workers: ${counted} counted of ${served} answered (+${unanswered} in flight)`);
  expect(counted).toBeGreaterThanOrEqual(served);
  expect(counted).toBeLessThanOrEqual(served + unanswered);
  expect(journals()).toEqual([]);
}, 90_000);

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Hard links of the live segments: when the node deletes one after its commit, the link keeps its content. */
function keepSegments(dir: string, kept: string): void {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (!name.endsWith('.clicks') || existsSync(join(kept, name))) continue;
    try {
      linkSync(join(dir, name), join(kept, name));
    } catch {
      // deleted meanwhile
    }
  }
}

/** Kept segments the node has deleted since: their batches are committed. */
function committedSince(dir: string, kept: string): number {
  return readdirSync(kept).filter((name) => !existsSync(join(dir, name))).length;
}

/** Puts back the segments the node deleted (committed), as a kill between commit and delete leaves them. */
function restoreCommitted(dir: string, kept: string): number {
  let restored = 0;
  for (const name of readdirSync(kept)) {
    if (existsSync(join(dir, name))) continue;
    renameSync(join(kept, name), join(dir, name));
    restored += 1;
  }
  return restored;
}
