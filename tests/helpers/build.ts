import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = process.cwd();
const STALE_LOCK_MS = 180_000;

/** One build output tests depend on, rebuilt when its sources are newer than its stamp. */
interface Build {
  /** The file whose absence after the build is the failure that matters. */
  entry: string;
  /** Written after each build: tools leave unchanged outputs untouched, so their times say nothing. */
  stamp: string;
  /** mkdir is atomic: the test file that creates it builds, the others wait for it to go. */
  lock: string;
  sources: string[];
  args: string[];
  /** tsc writes output despite type errors elsewhere in the tree (noEmitOnError is off): only a missing entry fails. */
  tolerant?: boolean;
}

const SERVER: Build = {
  entry: join(ROOT, 'dist', 'server.js'),
  stamp: join(ROOT, 'dist', '.test-build-stamp'),
  lock: join(ROOT, 'dist', '.test-build.lock'),
  sources: [join(ROOT, 'src')],
  args: [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  tolerant: true,
};

/** The dashboard as `npm run build` makes it (web/build.mjs: vite, precompression, size budget); its stamp lives outside dist/web, which vite empties. */
const WEB: Build = {
  entry: join(ROOT, 'dist', 'web', 'index.html'),
  stamp: join(ROOT, 'dist', '.test-web-build-stamp'),
  lock: join(ROOT, 'dist', '.test-web-build.lock'),
  sources: [join(ROOT, 'web')],
  args: [join(ROOT, 'web', 'build.mjs')],
};

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

function isFresh(build: Build): boolean {
  try {
    statSync(build.entry);
    return statSync(build.stamp).mtimeMs >= Math.max(...build.sources.map(newestSource));
  } catch {
    return false;
  }
}

function tryLock(lock: string): boolean {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  try {
    mkdirSync(lock);
    return true;
  } catch {
    // A lock left by a killed run would block every later one.
    if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

async function ensureFresh(build: Build): Promise<void> {
  while (!isFresh(build)) {
    if (!tryLock(build.lock)) {
      await sleep(250);
      continue;
    }
    try {
      if (isFresh(build)) return;
      const started = new Date();
      await run(process.execPath, build.args, { cwd: ROOT }).catch((err: { stdout?: string; stderr?: string }) => {
        if (!build.tolerant || !statSync(build.entry, { throwIfNoEntry: false })) throw new Error(`build failed:\n${err.stdout ?? ''}${err.stderr ?? err}`);
      });
      writeFileSync(build.stamp, '');
      utimesSync(build.stamp, started, started); // a file edited during the build is newer: the next run builds again
      return;
    } finally {
      rmSync(build.lock, { recursive: true, force: true });
    }
  }
}

/**
 * Builds dist/ as `npm start` does (tsc -p tsconfig.build.json) when src/ changed since the last build,
 * so tests that spawn `node dist/server.js` run the code in the working tree. Test files running in
 * parallel build once between them.
 */
export const ensureBuilt = (): Promise<void> => ensureFresh(SERVER);

/** Builds the dashboard into dist/web when web/ changed since its last build, for the browser tests of /app. */
export const ensureWebBuilt = (): Promise<void> => ensureFresh(WEB);
