import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = process.cwd();
const ENTRY = join(ROOT, 'dist', 'server.js');
/** Written after each build: tsc leaves unchanged outputs untouched, so their times say nothing. */
const STAMP = join(ROOT, 'dist', '.test-build-stamp');
/** mkdir is atomic: the test file that creates it builds, the others wait for it to go. */
const LOCK = join(ROOT, 'dist', '.test-build.lock');
const STALE_LOCK_MS = 180_000;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  try {
    statSync(ENTRY);
    return statSync(STAMP).mtimeMs >= newestSource(join(ROOT, 'src'));
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    // A lock left by a killed run would block every later one.
    if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

/**
 * Builds dist/ as `npm start` does (tsc -p tsconfig.build.json) when src/ changed since the last build,
 * so tests that spawn `node dist/server.js` run the code in the working tree. Test files running in
 * parallel build once between them.
 */
export async function ensureBuilt(): Promise<void> {
  while (!isFresh()) {
    if (!tryLock()) {
      await sleep(250);
      continue;
    }
    try {
      if (isFresh()) return;
      // tsc writes output despite type errors elsewhere in the tree (noEmitOnError is off); a missing
      // entry point after the run is the failure that matters here.
      const started = new Date();
      await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT })
        .catch((err: { stdout?: string }) => {
          if (!statSync(ENTRY, { throwIfNoEntry: false })) throw new Error(`build failed:\n${err.stdout ?? err}`);
        });
      writeFileSync(STAMP, '');
      utimesSync(STAMP, started, started); // a file edited during the build is newer: the next run builds again
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
