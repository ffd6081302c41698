import { readFile } from 'node:fs/promises';
import type { AppContext } from '../context.js';
import { userIdByEmail } from '../features/account/service.js';
import { importCsv, type ImportSummary } from '../features/links/transfer/import-service.js';
import { fail } from '../lib/errors.js';
import { CLI_ACTOR } from '../http/actor.js';
import { recordActivity } from '../features/account/activity/service.js';

const BAR = 30;
/** Without a terminal (a log, a pipe), a line every this many seconds instead of a redrawn bar. */
const LINE_EVERY_MS = 2000;

/** Progress on stderr: a bar redrawn in place on a terminal, else a plain line now and then and at the end. */
function progress(out: NodeJS.WriteStream) {
  const started = Date.now();
  let total = 0;
  let lastLine = 0;
  const show = (done: number, failed: number, end = false) => {
    const seen = done + failed;
    const rate = Math.round(seen / Math.max((Date.now() - started) / 1000, 0.001));
    const text = `${seen}/${total} rows, ${failed} failed, ${rate} rows/s`;
    if (out.isTTY) {
      const filled = total ? Math.round((BAR * seen) / total) : 0;
      out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${text}${end ? '\n' : ''}`);
    } else if (end || Date.now() - lastLine >= LINE_EVERY_MS) {
      lastLine = Date.now();
      out.write(`import: ${text}\n`);
    }
  };
  return {
    total: (n: number) => void (total = n),
    show,
  };
}

/** `import --email E FILE.csv`: the import of POST /api/urls/import, run here to its end. */
export async function importCommand(ctx: AppContext, email: string | undefined, file: string | undefined): Promise<ImportSummary> {
  if (!email) throw fail('invalid_field', '--email is required.');
  if (!file) throw fail('invalid_field', 'Name the CSV file to import: import --email E FILE.csv');
  const userId = await userIdByEmail(ctx, email);
  const bar = progress(process.stderr);
  const summary = await importCsv(ctx, userId, await readFile(file), {
    onTotal: (total) => bar.total(total),
    onChunk: ({ done, failed }) => bar.show(done, failed),
  });
  bar.show(summary.done, summary.failed, true);
  await recordActivity(ctx, userId, 'import', CLI_ACTOR);
  return summary;
}
