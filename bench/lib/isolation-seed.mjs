// Seeds the isolation scenario's database directly: three accounts (the flooder `a`, the victim `b`, `quiet`
// with no visits), `links` direct links of `a` (a0, a1, …) and a visit log of `packs` one-visit packs on them,
// plus (with a log) `a`'s link `deep` whose chain holds 500,000 visits (5,000 packs of 100), as the click writer leaves them.
// node bench/lib/isolation-seed.mjs DB LINKS PACKS → {"a":{key,deepId},"b":{key},"quiet":{key}}
import Database from 'better-sqlite3';
import { loadConfig } from '../../dist/config.js';
import { createContext } from '../../dist/context.js';
import { createUser } from '../../dist/features/account/service.js';

const [dbPath, linkCount, packCount] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const DEEP_PACKS = 5_000;
const DEEP_N = 100;
const NOW_S = Math.floor(Date.now() / 1000);
const NOW = new Date().toISOString().slice(0, 19).replace('T', ' ');
// One country, referrer, browser, OS, device kind and rule (none) for every visit: indexes 0–5 of these labels.
const LABELS = JSON.stringify(['United States', 'google.com', 'Chrome', 'Windows', 'desktop', '']);

const { pino } = await import('pino');
const ctx = await createContext(loadConfig({ DATABASE_URL: `sqlite:${dbPath}`, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
const users = {};
for (const name of ['a', 'b', 'quiet']) users[name] = await createUser(ctx, { email: `${name}@example.com`, username: `iso-${name}` });
await ctx.close();

/** A pack's codes: n Uint32 second offsets, then 6 one-byte label indexes per visit (src/clicks/visit-log.ts). */
function codes(n) {
  const bytes = Buffer.alloc(n * 4 + n * 6);
  for (let v = 0; v < n; v++) bytes.writeUInt32LE(v % 60, v * 4);
  for (let v = 0; v < n; v++) for (let s = 0; s < 6; s++) bytes[n * 4 + v * 6 + s] = s;
  return bytes;
}

const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF');
const link =
  db.prepare(`INSERT INTO links (user_id, alias, long_url, device_targets, geo_targets, language_targets, parameters, created_at, updated_at)
  VALUES (?, ?, ?, '[]', '[]', '[]', '[]', ?, ?)`);
const pack = db.prepare('INSERT INTO visit_packs (target_kind, target_id, prev, at, n, labels, codes) VALUES (?, ?, ?, ?, ?, ?, ?)');
const summary = db.prepare(
  "INSERT INTO click_summaries (target_kind, target_id, clicks, uniques, labels, visit_pack, visit_count) VALUES ('link', ?, ?, ?, '{}', ?, ?)",
);
let deepId = 0;
db.transaction(() => {
  // Loopback destinations: nothing leaves the machine even if a checker visits them.
  const ids = Array.from({ length: linkCount }, (_, i) =>
    Number(link.run(users.a.id, `a${i}`, `http://127.0.0.1:9/a/${i}`, NOW, NOW).lastInsertRowid),
  );
  if (packCount === 0) return; // a database for the floods that need no log
  deepId = Number(link.run(users.a.id, 'deep', 'http://127.0.0.1:9/deep', NOW, NOW).lastInsertRowid);
  const one = codes(1);
  // The bulk of the log: other links' visits of the last day, spread in time order, interleaved with the deep chain.
  const every = Math.max(1, Math.floor(packCount / DEEP_PACKS));
  const many = codes(DEEP_N);
  let prev = null;
  let deepPacks = 0;
  for (let i = 0; i < packCount || deepPacks < DEEP_PACKS; i++) {
    const at = NOW_S - 86_400 + Math.floor((i * 86_000) / Math.max(packCount, DEEP_PACKS));
    if (i < packCount && ids.length > 0) pack.run('link', ids[i % ids.length], null, at, 1, LABELS, one);
    if (i % every === 0 && deepPacks < DEEP_PACKS) {
      prev = Number(pack.run('link', deepId, prev, at, DEEP_N, LABELS, many).lastInsertRowid);
      deepPacks++;
    }
  }
  summary.run(deepId, DEEP_PACKS * DEEP_N, DEEP_PACKS * DEEP_N, prev, DEEP_PACKS * DEEP_N);
})();
db.close();
process.stdout.write(JSON.stringify({ a: { key: users.a.apiKey, deepId }, b: { key: users.b.apiKey }, quiet: { key: users.quiet.apiKey } }));
