// Seeds a benchmark database directly and fast: N direct links, targeted, parameter and routed links, and one
// link carrying CLICKS recorded clicks (their running aggregates and visitors). Prints {apiKey, statsLinkId}.
import Database from 'better-sqlite3';
import { ROUTING } from './lib/routing.mjs';
import { loadConfig } from '../dist/config.js';
import { createContext } from '../dist/context.js';
import { createUser } from '../dist/features/account/service.js';

const [dbPath, linkCount, clickCount] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 0)];
const TARGETED = 1000;
const NOW = new Date().toISOString().slice(0, 19).replace('T', ' ');

const { pino } = await import('pino');
const ctx = await createContext(loadConfig({ DATABASE_URL: `sqlite:${dbPath}`, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
const user = await createUser(ctx, { email: 'bench@example.com', username: 'bench' });
await ctx.close();

const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF');
const insert =
  db.prepare(`INSERT INTO links (user_id, alias, long_url, device_targets, geo_targets, language_targets, parameters, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);

const setRouting = db.prepare('UPDATE links SET routing = ? WHERE id = ?');

const targets = {
  device: JSON.stringify([
    { device: 'iphone', link: 'https://apps.example.com/ios' },
    { device: 'android', link: 'https://apps.example.com/android' },
  ]),
  geo: JSON.stringify([
    { location: 'germany', link: 'https://example.de/' },
    { location: 'united kingdom', link: 'https://example.co.uk/' },
  ]),
  language: JSON.stringify([
    { language: 'fr', link: 'https://example.fr/' },
    { language: 'es', link: 'https://example.es/' },
  ]),
  params: JSON.stringify([
    { name: 'utm_source', value: 'bench' },
    { name: 'utm_medium', value: 'short link' },
  ]),
};

db.transaction(() => {
  for (let i = 0; i < linkCount; i++) insert.run(user.id, `d${i}`, `https://example.com/articles/${i}?ref=short`, '[]', '[]', '[]', '[]', NOW, NOW);
  for (let i = 0; i < TARGETED; i++) {
    insert.run(user.id, `t${i}`, `https://example.com/t/${i}`, targets.device, targets.geo, targets.language, '[]', NOW, NOW);
    insert.run(user.id, `p${i}`, `https://example.com/p/${i}?a=1`, '[]', '[]', '[]', targets.params, NOW, NOW);
    const id = insert.run(user.id, `r${i}`, `https://example.com/r/${i}`, '[]', '[]', '[]', '[]', NOW, NOW).lastInsertRowid;
    setRouting.run(ROUTING, id);
  }
})();

const statsLinkId = Number(insert.run(user.id, 'stats-link', 'https://example.com/popular', '[]', '[]', '[]', '[]', NOW, NOW).lastInsertRowid);
if (clickCount > 0) seedClicks(statsLinkId, clickCount);
if (clickCount > 0) seedAccountSeries(user.id);
db.close();
process.stdout.write(JSON.stringify({ apiKey: user.apiKey, statsLinkId }));

/** The aggregates the recorder keeps for `count` clicks spread over a realistic mix of labels. */
function seedClicks(linkId, count) {
  const labels = {
    country: ['United States', 'Germany', 'United Kingdom', 'France', 'Spain', 'Japan', 'Brazil', 'India', 'Canada', 'Italy', 'Mexico', 'Poland'],
    referrer: ['facebook.com', 't.co', 'google.com', 'direct', 'news.example.org', 'reddit.com', 'linkedin.com'],
    browser: ['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet'],
    os: ['Windows', 'iOS', 'Android', 'macOS', 'Linux'],
    social: ['facebook', 'twitter', 'google', 'reddit', 'linkedin'],
  };
  const stat = db.prepare("INSERT INTO click_stats (target_kind, target_id, dimension, label, count) VALUES ('link', ?, 'referrer', ?, ?)");
  const summary = db.prepare("INSERT INTO click_summaries (target_kind, target_id, clicks, uniques, labels) VALUES ('link', ?, ?, ?, ?)");
  const unique = db.prepare("INSERT INTO click_uniques (target_kind, target_id, visitor_hash) VALUES ('link', ?, ?)");
  const uniques = Math.min(count, 400_000);
  // Click i has label i mod n, as a real spread would be uneven but complete.
  const spread = (names) => names.map((label, i) => [label, Math.floor(count / names.length) + (i < count % names.length ? 1 : 0)]);
  db.transaction(() => {
    const summarized = {};
    for (const [dimension, names] of Object.entries(labels)) {
      for (const [label, n] of spread(names)) {
        if (dimension === 'referrer') stat.run(linkId, label, n);
        else summarized[`${dimension}:${label}`] = n;
      }
    }
    summary.run(linkId, count, uniques, JSON.stringify(summarized));
    for (let i = 0; i < uniques; i++) unique.run(linkId, `v${String(i).padStart(31, '0')}`);
  })();
}

/** The account's own series buckets as the writer leaves them: every hour of the last 90 days, days for three years before. */
function seedAccountSeries(userId) {
  const hour = db.prepare('INSERT INTO account_hours (user_id, hour, clicks, uniques) VALUES (?, ?, ?, ?)');
  const day = db.prepare('INSERT INTO account_days (user_id, day, clicks, uniques) VALUES (?, ?, ?, ?)');
  const nowHour = Math.floor(Date.now() / 3_600_000);
  db.transaction(() => {
    for (let h = nowHour - 90 * 24; h <= nowHour; h++) hour.run(userId, h, 500 + (h % 97), 200 + (h % 31));
    for (let d = Math.floor(nowHour / 24) - 91 - 3 * 365; d < Math.floor(nowHour / 24) - 90; d++)
      day.run(userId, d, 12_000 + (d % 89), 5_000 + (d % 13));
  })();
}
