// `npm audit --omit=dev --audit-level=high`, telling a finding from an audit endpoint that cannot answer.
// Advisories of high or critical severity fail CI. A registry without the audit endpoint (some mirrors
// and proxies answer 405) cannot be checked: that is printed loudly, and fails CI only with CI_AUDIT=require.
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = null;
}
if (run.status === 0) {
  console.log('ci: npm audit: no high or critical advisories in production dependencies');
  process.exit(0);
}
const meta = report?.metadata?.vulnerabilities;
if (meta) {
  console.error(`ci: npm audit FAILED: ${meta.high ?? 0} high and ${meta.critical ?? 0} critical advisories in production dependencies`);
  spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high'], { stdio: 'inherit' });
  process.exit(1);
}
const why = report?.statusCode ? `HTTP ${report.statusCode} from ${report.uri}` : (run.stderr || run.stdout).trim().split('\n').pop();
console.error(`ci: WARNING: npm audit could not run (${why}): production dependencies were NOT checked for advisories`);
process.exit(process.env.CI_AUDIT === 'require' ? 1 : 0);
