// Import speed: N links from a CSV in Redirectory's own export format into a fresh SQLite database, through
// the service `npm run cli -- import` runs (the import job runs the same). Needs `npm run build` first.
// Standalone: node bench/lib/import.mjs [links]; prints `import: N links in T s = R links/s`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';

/** A realistic file: titles on every link, a custom alias on one in four, targets and parameters on one in ten. */
function csvOf(count) {
  const rows = Array.from({ length: count }, (_, i) => ({
    alias: i % 4 === 0 ? `imported-${i}` : '',
    longurl: `https://example.com/articles/${i}?utm_source=newsletter&ref=import`,
    title: `Article ${i}: a title of the usual length`,
    devicetarget: i % 10 === 0 ? JSON.stringify([{ device: 'iphone', link: `https://apps.example.com/ios/${i}` }]) : '',
    parameters: i % 10 === 5 ? JSON.stringify([{ name: 'utm_medium', value: 'short link' }]) : '',
    date: '2026-01-02 03:04:05',
  }));
  return Buffer.from(stringify(rows, { header: true }));
}

async function measure(count) {
  const { pino } = await import('pino');
  const { loadConfig } = await import('../../dist/config.js');
  const { createContext } = await import('../../dist/context.js');
  const { createUser } = await import('../../dist/features/account/service.js');
  const { importCsv } = await import('../../dist/features/links/transfer/import-service.js');
  const { composeFeatures } = await import('../../dist/compose.js');
  composeFeatures(); // the ports the import's pipeline uses, as the app and the CLI plug them
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-import-'));
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'import.db')}`, BASE_URL: 'http://bench.test', LOG_LEVEL: 'silent' });
  const ctx = await createContext(config, pino({ level: 'silent' }));
  try {
    const user = await createUser(ctx, { email: 'import@example.com' });
    const body = csvOf(count);
    const started = performance.now();
    const summary = await importCsv(ctx, user.id, body);
    const seconds = (performance.now() - started) / 1000;
    if (summary.done !== count) throw new Error(`imported ${summary.done} of ${count} links: ${JSON.stringify(summary.errors.slice(0, 3))}`);
    return { count, seconds, rate: count / seconds };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the measurement in a process of its own (as the CLI would) and prints its line; answers links/s. */
export function benchImport(count) {
  const out = execFileSync('node', [fileURLToPath(import.meta.url), String(count)], { encoding: 'utf8' });
  process.stdout.write(out);
  return Number(/= (\d+) links\/s/.exec(out)[1]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { count, seconds, rate } = await measure(Number(process.argv[2] ?? 50_000));
  console.log(`import: ${count} links in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} links/s`);
}
