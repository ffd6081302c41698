// Fails when a commit after BASE has a subject over 72 characters, merge commits included: the detail goes in the
// body, so that `git log --oneline` reads as a changelog. `npm run check:commits`; CI runs it (.ci/run).
//   node scripts/check-commits.mjs [base]      base: the last commit not checked (default f783a17, where the rule began)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const BASE = process.argv[2] ?? 'f783a17';
const MAX = 72;

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  git('merge-base', '--is-ancestor', BASE, 'HEAD');
} catch {
  console.error(`check-commits: ${BASE} is not in this checkout's history of HEAD (a shallow clone? clone with full history)`);
  process.exit(1);
}

// %s is the subject as `git log --oneline` shows it (a first paragraph of several lines is joined with spaces).
const commits = git('log', '--format=%h%x00%s', `${BASE}..HEAD`)
  .split('\n')
  .filter(Boolean)
  .map((line) => line.split('\0'));
const long = commits.filter(([, subject]) => [...subject].length > MAX);
for (const [hash, subject] of long) console.error(`${hash} has a ${[...subject].length}-character subject (at most ${MAX}): ${subject}`);
console.error(
  long.length === 0
    ? `check-commits: ${commits.length} commits after ${BASE}, every subject at most ${MAX} characters`
    : `check-commits: FAILED: ${long.length} of ${commits.length} commits after ${BASE} have subjects over ${MAX} characters`,
);
process.exit(long.length === 0 ? 0 : 1);
