// Type-checks the server, tests and bench (tsconfig.json) and the dashboard (web/tsconfig.json) side by side, and
// fails on any type error. `npm run typecheck`; `npm test` runs it first (pretest), so a type error stops the run
// in seconds instead of being built and tested as it is (tests/helpers/build.ts builds tolerantly).
// Both checks are incremental (build info in dist/): a warm run re-checks only what changed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const pretty = process.stdout.isTTY ? ['--pretty'] : ['--pretty', 'false'];

const PROJECTS = {
  'tsconfig.json': ['-p', 'tsconfig.json', '--noEmit'],
  'web/tsconfig.json': ['-p', 'web/tsconfig.json', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo.web'],
};

/** Runs one tsc and keeps its output, printed whole when it ends so the two projects' errors do not interleave. */
function check(name, args) {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, ...args, ...pretty], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => void (output += chunk));
    child.stderr.on('data', (chunk) => void (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ name, code, output, seconds: ((performance.now() - began) / 1000).toFixed(1) }));
  });
}

const results = await Promise.all(Object.entries(PROJECTS).map(([name, args]) => check(name, args)));
for (const { name, code, output, seconds } of results) {
  if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  console.error(`typecheck: ${name} ${code === 0 ? 'passed' : `FAILED (tsc exit ${code})`} in ${seconds} s`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
