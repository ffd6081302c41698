import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ensureWebBuilt } from './helpers/build.js';
import { freePort } from './helpers/cluster.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';

/**
 * `npm start` as the README runs it, in a copy of this checkout (its sources, configs, scripts and build;
 * node_modules linked), so that changing a source here cannot disturb the other test files' dist/.
 */
const ROOT = process.cwd();
const COPIED = ['src', 'web', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const BUILD_MS = 300_000;
const run = promisify(execFile);

let copy: string;
let db: ProcessDb;
const running: Start[] = [];

interface Start {
  proc: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<void>;
}

beforeAll(async () => {
  await ensureBuilt();
  await ensureWebBuilt();
  copy = mkdtempSync(join(tmpdir(), 'redirectory-start-'));
  for (const path of COPIED) if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  // The tests' build, copied: a build is current for the same sources wherever they are checked out.
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  // What `npm start` does first, once: the tests' build skips the dashboard's type check, which `npm start` wants.
  await run('npm', ['run', '-s', 'prestart'], { cwd: copy, timeout: BUILD_MS });
  db = await processDb();
}, BUILD_MS);

afterAll(async () => {
  for (const start of running) stop(start);
  await Promise.all(running.map((s) => s.exited));
  await db?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** `npm start` in the copy, in a process group of its own (npm, its shell, node), until /health answers 200. */
async function npmStart(): Promise<Start> {
  const port = await freePort();
  const proc = spawn('npm', ['start'], {
    cwd: copy,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...db.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  proc.stdout!.on('data', (chunk: Buffer) => void (log += chunk));
  proc.stderr!.on('data', (chunk: Buffer) => void (log += chunk));
  let gone = false;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve())).then(() => void (gone = true));
  const start: Start = { proc, url: `http://127.0.0.1:${port}`, output: () => log, exited };
  running.push(start);
  const deadline = Date.now() + BUILD_MS;
  while (!(await healthy(start.url))) {
    if (gone || Date.now() > deadline) throw new Error(`npm start did not serve /health:\n${log}`);
    await sleep(100);
  }
  return start;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).status === 200;
  } catch {
    return false;
  }
}

function stop(start: Start): void {
  try {
    process.kill(-start.proc.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** Every file of a build with its modification time: a rebuild rewrites at least some of them. */
function buildTimes(dir: string): Record<string, number> {
  const times: Record<string, number> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) walk(file);
      else times[file.slice(dir.length)] = statSync(file).mtimeMs;
    }
  };
  walk(dir);
  return times;
}

/** What a build leaves next to dist/ when it is done: nothing. */
const leftovers = () => readdirSync(copy).filter((name) => name.startsWith('dist.'));

it(
  'on an unchanged checkout, npm start serves the existing build without building',
  async () => {
    const before = buildTimes(join(copy, 'dist'));
    const start = await npmStart();
    expect(start.output()).toContain('build: dist/ is up to date');
    expect(buildTimes(join(copy, 'dist'))).toEqual(before);
    stop(start);
    await start.exited;
  },
  BUILD_MS,
);

it(
  'after a source changed, two npm start at once build it once, and both serve the new build',
  async () => {
    const mark = `mark-${process.pid}-${Date.now()}`;
    writeFileSync(join(copy, 'src', 'start-mark.ts'), `export const START_MARK = '${mark}';\n`);
    // A build killed mid-way left its lock: its heartbeat stopped long ago, so the starts take it over.
    mkdirSync(join(copy, 'dist.lock'));
    const killedAt = new Date(Date.now() - 600_000);
    utimesSync(join(copy, 'dist.lock'), killedAt, killedAt);

    const starts = await Promise.all([npmStart(), npmStart()]);
    expect(readFileSync(join(copy, 'dist', 'start-mark.js'), 'utf8')).toContain(mark);
    const builds = starts.map((s) => s.output().match(/out of date; building/g)?.length ?? 0);
    expect(builds.sort(), starts.map((s) => s.output()).join('\n----\n')).toEqual([0, 1]);
    expect(leftovers()).toEqual([]);
    for (const start of starts) stop(start);
    await Promise.all(starts.map((s) => s.exited));
  },
  BUILD_MS * 2,
);
