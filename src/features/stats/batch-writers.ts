import type SQLite from 'better-sqlite3';
import type { Db } from '../../db/connect.js';
import type { TargetKind } from '../../db/types.js';
import { BoundedCache } from '../../lib/bounded-cache.js';
import { aggregate, targetKey, type DerivedClick, type PendingClick } from './derive.js';
import * as repo from './repo.js';

/**
 * Writes one batch of raw visits atomically: derives them (bots dropped), then click rows, running
 * aggregates, uniques and counters. `close` releases what the writer holds.
 */
export interface BatchWriter {
  write(batch: PendingClick[]): Promise<void>;
  close(): Promise<void>;
}

export type Deriver = (batch: PendingClick[]) => DerivedClick[];

const KINDS = ['link', 'qr'] as const;

/**
 * PostgreSQL (and any Kysely dialect): multi-row statements, a round trip per chunk. Live targets are
 * checked before the transaction so it opens with a write (see recorder.ts).
 */
export function kyselyBatchWriter(db: Db, derive: Deriver): BatchWriter {
  const write = async (batch: PendingClick[]) => {
    const counted = await onLiveTargets(db, derive(batch));
    if (counted.length === 0) return;
    await db.transaction().execute(async (trx) => {
      const { stats, uniques, totals } = aggregate(counted);
      await repo.insertClicks(trx, counted.map((click) => click.row));
      await repo.upsertStats(trx, stats);
      const fresh = await repo.insertUniques(trx, uniques);
      for (const kind of KINDS) {
        const increments = totals.filter((t) => t.kind === kind)
          .map((t) => ({ id: t.id, clicks: t.clicks, uniques: fresh.get(targetKey(kind, t.id)) ?? 0 }));
        await repo.incrementCounters(trx, kind, increments);
      }
    });
  };
  return { write, close: async () => {} };
}

async function onLiveTargets(db: Db, clicks: DerivedClick[]): Promise<DerivedClick[]> {
  const live = new Set<string>();
  for (const kind of KINDS) {
    const ids = [...new Set(clicks.filter((c) => c.row.target_kind === kind).map((c) => c.row.target_id))];
    if (ids.length === 0) continue;
    for (const id of await repo.existingTargets(db, kind, ids)) live.add(targetKey(kind, id));
  }
  return clicks.filter((c) => live.has(targetKey(c.row.target_kind, c.row.target_id)));
}

/** Visitor pairs the SQLite writer remembers as stored. */
const KNOWN_VISITORS = 200_000;

/**
 * SQLite: the same writes through statements prepared once, in one synchronous transaction. Compiling
 * and preparing a fresh multi-row statement per chunk cost ~100 µs of CPU per click; reusing prepared
 * single-row statements costs a few. Used by the writer thread (src/features/stats/writer-thread.ts).
 */
export function sqliteClickWriter(sqlite: SQLite.Database): (clicks: DerivedClick[]) => void {
  const exists = {
    link: sqlite.prepare('SELECT 1 FROM links WHERE id = ?').pluck(),
    qr: sqlite.prepare('SELECT 1 FROM qr_codes WHERE id = ?').pluck(),
  };
  const counters = {
    link: sqlite.prepare('UPDATE links SET clicks = clicks + ?, unique_clicks = unique_clicks + ? WHERE id = ?'),
    qr: sqlite.prepare('UPDATE qr_codes SET scans = scans + ?, unique_scans = unique_scans + ? WHERE id = ?'),
  };
  const click = sqlite.prepare(`INSERT INTO clicks (target_kind, target_id, created_at, country, referrer, browser, os, device, language, visitor_hash)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const stat = sqlite.prepare(`INSERT INTO click_stats (target_kind, target_id, dimension, label, count) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (target_kind, target_id, dimension, label) DO UPDATE SET count = count + excluded.count`);
  const unique = sqlite.prepare('INSERT OR IGNORE INTO click_uniques (target_kind, target_id, visitor_hash) VALUES (?, ?, ?)');
  // Visitors this writer has committed recently: most clicks are repeat visits, and a pair known to be
  // stored needs no insert. Filled only after a commit, so a rolled-back batch leaves nothing behind.
  const known = new BoundedCache<string, true>(KNOWN_VISITORS);
  let committed: string[] = [];

  const write = sqlite.transaction((clicks: DerivedClick[]) => {
    const alive = new Map<string, boolean>();
    const isLive = (kind: TargetKind, id: number) => {
      const key = targetKey(kind, id);
      let live = alive.get(key);
      if (live === undefined) alive.set(key, (live = exists[kind].get(id) !== undefined));
      return live;
    };
    const counted = clicks.filter((c) => isLive(c.row.target_kind, c.row.target_id));
    const { stats, uniques, totals } = aggregate(counted);
    for (const { row: r } of counted) {
      click.run(r.target_kind, r.target_id, r.created_at, r.country, r.referrer, r.browser, r.os, r.device, r.language, r.visitor_hash);
    }
    for (const s of stats) stat.run(s.target_kind, s.target_id, s.dimension, s.label, s.count);
    const fresh = new Map<string, number>();
    committed = [];
    for (const u of uniques) {
      const pair = `${u.target_kind}:${u.target_id}:${u.visitor_hash}`;
      if (known.get(pair)) continue;
      committed.push(pair);
      if (unique.run(u.target_kind, u.target_id, u.visitor_hash).changes === 0) continue;
      const key = targetKey(u.target_kind, u.target_id);
      fresh.set(key, (fresh.get(key) ?? 0) + 1);
    }
    for (const t of totals) counters[t.kind].run(t.clicks, fresh.get(targetKey(t.kind, t.id)) ?? 0, t.id);
  });
  return (clicks) => {
    write.immediate(clicks);
    for (const pair of committed) known.set(pair, true);
  };
}
