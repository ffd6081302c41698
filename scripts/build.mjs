// Builds dist/ only when its sources changed: `npm start` (prestart), `npm install` (prepare), `npm run build`
// (--force) and the tests (tests/helpers/build.ts) all come through here, one build at a time per checkout.
//   node scripts/build.mjs [--force] [--tolerant] [--soft] [step ...]      steps: server web-types web (default all)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
/** Outside dist/, which a build replaces whole. */
const LOCK = join(ROOT, 'dist.lock');
const STAMP = '.build-stamp.json';
/** The lock holder touches the lock this often; a lock untouched for STALE_MS is a killed build's. */
const HEARTBEAT_MS = 2_000;
const STALE_MS = 30_000;
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** Inputs of every step: dependencies and this script decide what a build makes. */
const COMMON = ['package.json', 'package-lock.json', 'scripts/build.mjs'];

/**
 * What `npm run build` does, in order. `out` is the directory being built (a copy of dist/ swapped in when done).
 * web-types writes nothing: its stamp says the dashboard's type check passed on those inputs.
 */
export const STEPS = {
  server: {
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json'],
    entry: 'server.js',
    /** tsc's exit code when it found type errors and wrote its output anyway (noEmitOnError is off). */
    typeErrorExit: 2,
    command: (out) => [TSC, '-p', 'tsconfig.build.json', '--outDir', out, '--tsBuildInfoFile', join(out, '.tsbuildinfo.build')],
  },
  // The dashboard imports the server's schema types, so its type check reads src/ too.
  'web-types': { inputs: ['web', 'src'], command: () => [TSC, '-p', 'web/tsconfig.json'] },
  web: {
    inputs: ['web'],
    entry: 'web/index.html',
    command: () => [join(ROOT, 'web', 'build.mjs')],
    env: (out) => ({ WEB_OUT_DIR: join(out, 'web') }),
  },
};

function files(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** Content hashes, not times: a fresh clone or a checkout of the same commit is up to date. */
export function fingerprints(steps = Object.keys(STEPS)) {
  const hashes = new Map();
  const hashOf = (file) => {
    if (!hashes.has(file)) hashes.set(file, createHash('sha256').update(readFileSync(file)).digest('hex'));
    return hashes.get(file);
  };
  return Object.fromEntries(
    steps.map((step) => {
      const hash = createHash('sha256');
      for (const file of [...STEPS[step].inputs, ...COMMON].flatMap((input) => files(join(ROOT, input)))) {
        hash.update(`${relative(ROOT, file)}\0${hashOf(file)}\n`);
      }
      return [step, hash.digest('hex')];
    }),
  );
}

function readStamp(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, STAMP), 'utf8'));
  } catch {
    return {};
  }
}

function writeStamp(dir, stamp) {
  const temp = join(dir, `${STAMP}.${process.pid}`);
  writeFileSync(temp, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(temp, join(dir, STAMP));
}

/** Steps whose recorded inputs differ from `prints`, whose output is gone, or (unless tolerant) that did not pass. */
function staleSteps(steps, prints, tolerant) {
  const stamp = readStamp(DIST);
  return steps.filter((step) => {
    const done = stamp[step];
    if (!done || done.inputs !== prints[step] || !(tolerant || done.clean)) return true;
    return STEPS[step].entry !== undefined && !existsSync(join(DIST, STEPS[step].entry));
  });
}

/** mkdir is atomic: whoever makes the lock builds. A lock whose heartbeat stopped (a killed build) is taken over. */
function tryLock() {
  try {
    mkdirSync(LOCK);
    return true;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    const touched = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
    if (touched !== undefined && Date.now() - touched > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function touchLock() {
  try {
    utimesSync(LOCK, new Date(), new Date());
  } catch {
    // taken over after a stall: the build goes on and its swap still puts a complete build in place
  }
}

function run(args, env, quiet) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => void (output += chunk));
    child.stderr?.on('data', (chunk) => void (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** A killed build leaves its copy behind; only the lock holder calls this, so no other build is using one. */
function removeLeftovers() {
  for (const name of readdirSync(ROOT)) {
    if (/^dist\.(next|old)-/.test(name)) rmSync(join(ROOT, name), { recursive: true, force: true });
  }
}

/** Moves `from` to `to`, moving whatever is at `to` out of the way first; the old tree is deleted after. */
function swapIn(from, to) {
  const old = `${to}.old-${process.pid}-${Date.now()}`;
  try {
    renameSync(to, old);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  renameSync(from, to);
  rmSync(old, { recursive: true, force: true });
}

/**
 * Builds the stale steps into a copy of dist/ (tsc builds incrementally from the copied build info) and then
 * swaps it in: a server started meanwhile loads the old build or the new one, never half of one. When only the
 * dashboard changed, only dist/web is swapped, so servers starting from dist/ are not touched at all.
 */
async function buildSteps(stale, prints, { tolerant, quiet }) {
  removeLeftovers();
  const next = `${DIST}.next-${process.pid}`;
  if (existsSync(DIST)) cpSync(DIST, next, { recursive: true });
  else mkdirSync(next);
  const stamp = readStamp(next);
  try {
    for (const step of Object.keys(STEPS).filter((s) => stale.includes(s))) {
      const { command, env, typeErrorExit } = STEPS[step];
      delete stamp[step];
      const { code, output } = await run(command(next), env?.(next), quiet);
      // A tolerant build keeps output written despite type errors, marked unclean so that `npm start` rebuilds it.
      const usable = code === 0 || (tolerant && code === typeErrorExit);
      if (!usable) throw new Error(`build: ${step} failed (exit ${code})${output ? `:\n${output}` : ''}`);
      stamp[step] = { inputs: prints[step], clean: code === 0, builtAt: new Date().toISOString() };
    }
    writeStamp(next, stamp);
    if (stale.includes('server') || !existsSync(DIST)) return swapIn(next, DIST);
    if (stale.includes('web')) swapIn(join(next, 'web'), join(DIST, 'web'));
    writeStamp(DIST, { ...readStamp(DIST), ...Object.fromEntries(stale.map((s) => [s, stamp[s]])) });
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

/**
 * Makes dist/ up to date for `steps` and says what it did. Concurrent callers (two `npm start`, parallel test
 * files) build once between them: the others wait for the lock and find the build done.
 * `tolerant` accepts a server build with type errors (the tests run the working tree as it is).
 */
export async function ensureBuilt({ steps = Object.keys(STEPS), force = false, tolerant = false, quiet = false } = {}) {
  const began = performance.now();
  let forced = force;
  let waited = false;
  for (;;) {
    const stale = forced ? steps : staleSteps(steps, fingerprints(steps), tolerant);
    if (stale.length === 0) return { built: [], waited, ms: performance.now() - began };
    if (!tryLock()) {
      waited = true;
      await sleep(200);
      continue;
    }
    const heartbeat = setInterval(touchLock, HEARTBEAT_MS);
    try {
      // Read again under the lock: another caller may have built between our look and the lock.
      const current = fingerprints(steps);
      const still = forced ? steps : staleSteps(steps, current, tolerant);
      if (still.length > 0) {
        if (!quiet) console.error(`build: ${still.join(', ')} out of date; building…`);
        await buildSteps(still, current, { tolerant, quiet });
      }
      return { built: still, waited, ms: performance.now() - began };
    } finally {
      clearInterval(heartbeat);
      rmSync(LOCK, { recursive: true, force: true });
      forced = false;
    }
  }
}

async function main(argv) {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const steps = argv.filter((a) => !a.startsWith('--'));
  const unknown = steps.filter((s) => !(s in STEPS));
  if (unknown.length > 0) throw new Error(`build: unknown step ${unknown.join(', ')} (steps: ${Object.keys(STEPS).join(', ')})`);
  const { built, waited, ms } = await ensureBuilt({
    steps: steps.length > 0 ? steps : undefined,
    force: flags.has('--force'),
    tolerant: flags.has('--tolerant'),
  });
  const seconds = (ms / 1000).toFixed(ms < 1000 ? 2 : 1);
  const done = waited ? `after waiting for another build, ${seconds} s` : `checked in ${seconds} s`;
  console.error(built.length === 0 ? `build: dist/ is up to date (${done})` : `build: built ${built.join(', ')} in ${seconds} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const soft = process.argv.includes('--soft');
  main(process.argv.slice(2).filter((a) => a !== '--soft')).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    // --soft (npm install's prepare): an install never fails because of the build; `npm start` builds and says why.
    if (soft) console.error('build: skipped; `npm start` will build');
    process.exit(soft ? 0 : 1);
  });
}
