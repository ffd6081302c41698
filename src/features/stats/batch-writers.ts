import type SQLite from 'better-sqlite3';
import type { Db } from '../../db/connect.js';
import { BoundedCache } from '../../lib/bounded-cache.js';
import { aggregate, statRows, targetKey, uniqueRows, type DerivedClick, type PendingClick, type TargetBatch } from './derive.js';
import * as repo from './repo.js';

/**
 * Writes one batch of raw visits atomically: derives them (bots dropped), then unique visitors and the
 * running aggregates with the targets' counters. `close` releases what the writer holds.
 */
export interface BatchWriter {
  write(batch: PendingClick[]): Promise<void>;
  close(): Promise<void>;
}

export type Deriver = (batch: PendingClick[]) => DerivedClick[];

const KINDS = ['link', 'qr'] as const;

/**
 * PostgreSQL (and any Kysely dialect): multi-row statements, a round trip per chunk. Live targets are
 * checked before the transaction so it opens with a write (see recorder.ts). Visitors go first: their
 * inserts say how many are new, which the counters then add.
 */
export function kyselyBatchWriter(db: Db, derive: Deriver): BatchWriter {
  const write = async (batch: PendingClick[]) => {
    const targets = aggregate(await onLiveTargets(db, derive(batch)));
    if (targets.length === 0) return;
    await db.transaction().execute(async (trx) => {
      const fresh = await repo.insertUniques(trx, targets.flatMap(uniqueRows));
      await repo.upsertStats(trx, targets.flatMap((t) => statRows(t, fresh.get(targetKey(t.kind, t.id)) ?? 0)));
    });
  };
  return { write, close: async () => {} };
}

async function onLiveTargets(db: Db, clicks: DerivedClick[]): Promise<DerivedClick[]> {
  const live = new Set<string>();
  for (const kind of KINDS) {
    const ids = [...new Set(clicks.filter((c) => c.kind === kind).map((c) => c.id))];
    if (ids.length === 0) continue;
    for (const id of await repo.existingTargets(db, kind, ids)) live.add(targetKey(kind, id));
  }
  return clicks.filter((c) => live.has(targetKey(c.kind, c.id)));
}

/** Visitor pairs the SQLite writer remembers as stored. */
const KNOWN_VISITORS = 200_000;

/**
 * SQLite: the same writes through statements prepared once, in one synchronous transaction, target by
 * target so each one's rows are written while their pages are at hand. Compiling and preparing a fresh
 * multi-row statement per chunk cost ~100 µs of CPU per click; reusing prepared single-row statements
 * costs a few. Used by the writer thread (src/features/stats/writer-thread.ts).
 */
export function sqliteClickWriter(sqlite: SQLite.Database): (clicks: DerivedClick[]) => void {
  const exists = {
    link: sqlite.prepare('SELECT 1 FROM links WHERE id = ?').pluck(),
    qr: sqlite.prepare('SELECT 1 FROM qr_codes WHERE id = ?').pluck(),
  };
  const stat = sqlite.prepare(`INSERT INTO click_stats (target_kind, target_id, dimension, label, count) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (target_kind, target_id, dimension, label) DO UPDATE SET count = count + excluded.count`);
  const unique = sqlite.prepare('INSERT OR IGNORE INTO click_uniques (target_kind, target_id, visitor_hash) VALUES (?, ?, ?)');
  // Visitors this writer has committed recently: most clicks are repeat visits, and a pair known to be
  // stored needs no insert. Filled only after a commit, so a rolled-back batch leaves nothing behind.
  const known = new BoundedCache<string, true>(KNOWN_VISITORS);
  let committed: string[] = [];

  const freshVisitors = (target: TargetBatch) => {
    let fresh = 0;
    for (const visitor of target.visitors) {
      const pair = `${target.kind}:${target.id}:${visitor}`;
      if (known.get(pair)) continue;
      committed.push(pair);
      fresh += unique.run(target.kind, target.id, visitor).changes;
    }
    return fresh;
  };
  const write = sqlite.transaction((clicks: DerivedClick[]) => {
    committed = [];
    for (const target of aggregate(clicks)) {
      if (exists[target.kind].get(target.id) === undefined) continue; // deleted since the visit
      for (const s of statRows(target, freshVisitors(target))) stat.run(s.target_kind, s.target_id, s.dimension, s.label, s.count);
    }
  });
  return (clicks) => {
    write.immediate(clicks);
    for (const pair of committed) known.set(pair, true);
  };
}
