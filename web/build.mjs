// Builds the dashboard into dist/web (vite), writes a gzip and a brotli copy of every text asset for the server
// to send as they are, and fails when the JavaScript the first page load needs is over its budget.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const ROOT = import.meta.dirname;
/** scripts/build.mjs builds into a copy of dist/ and swaps it in when done (WEB_OUT_DIR is that copy's web/). */
const OUT = process.env.WEB_OUT_DIR ?? join(ROOT, '..', 'dist', 'web');
/** Initial JavaScript (the entry and the chunks it imports statically), gzipped. */
const BUDGET_BYTES = 250 * 1024;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

// Always the production build of React and the app, also when run from the tests (vitest sets NODE_ENV=test).
process.env.NODE_ENV = 'production';
await build({ configFile: join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: process.env.CI ? 'info' : 'warn', build: { outDir: OUT } });

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

for (const path of files(OUT).filter((p) => COMPRESSIBLE.test(p))) {
  const body = readFileSync(path);
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  );
}

// What index.html loads before anything else: its module scripts and the chunks vite preloads with them.
const index = readFileSync(join(OUT, 'index.html'), 'utf8');
const initial = [...index.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/app\/([^"]+\.js)"/g)].map((m) => m[1]);
if (initial.length === 0) throw new Error('build: found no script in dist/web/index.html');
let total = 0;
for (const name of initial) total += readFileSync(join(OUT, `${name}.gz`)).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `dashboard: initial JavaScript ${kb(total)} gzipped (${initial.length} files; budget ${kb(BUDGET_BYTES)}) in ${relative(process.cwd(), OUT)}`,
);
if (total > BUDGET_BYTES) {
  console.error(`build FAILED: the dashboard's initial JavaScript is ${kb(total)} gzipped, over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}
