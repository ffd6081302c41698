import type SQLite from 'better-sqlite3';
import type { Db } from '../db/connect.js';
import { formatTimestamp } from '../lib/time.js';
import { AccountHours } from './account-hours.js';
import { upsertAccountHours } from './account-store.js';
import { earlierHourRows, freshVisitors, isVariant, referrerRows, summaryRow, uniqueRows, variantFresh, variantHourRow } from './batch-rows.js';
import { targetKey, type AggregatedBatch, type TargetBatch } from './derive.js';
import { clickBatchHooks, type ClickedTarget, type KyselyBatchHook } from './batch-hooks.js';
import type { JournalMark } from './journal/segments.js';
import { MARK_JOURNAL_SQL, markJournal } from './journal/repo.js';
import { KnownVisitors } from './known-visitors.js';
import * as forget from './forget.js';
import * as repo from './store.js';
import { KINDS, type VisitBatch } from './visit-columns.js';
import type { ClickUniquesTable, TargetKind } from '../db/types.js';
import { packer, type Packer } from './visit-log.js';

/**
 * Writes one batch of raw visits atomically: aggregates them (bots dropped), then unique visitors, the
 * referrer rows and each target's summary row (counters and the other labels). `close` releases what
 * the writer holds. `write` resolves with the milliseconds the write itself took when the writer measured
 * them apart from waiting (the SQLite thread), else with nothing.
 */
export interface BatchWriter {
  write(batch: VisitBatch): Promise<number | void>;
  close(): Promise<void>;
}

export type Aggregator = (batch: VisitBatch) => AggregatedBatch;

/** Deletions are remembered a day (src/db/migrations/0002), and forgotten about once an hour. */
const REMEMBER_DELETED_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/** Answers the cut-off for forgetting old deletions when a prune is due, else null. */
function pruneSchedule(): () => string | null {
  let next = 0;
  return () => {
    const now = Date.now();
    if (now < next) return null;
    next = now + PRUNE_EVERY_MS;
    return formatTimestamp(new Date(now - REMEMBER_DELETED_MS));
  };
}

/**
 * PostgreSQL (and any Kysely dialect): multi-row statements, a round trip per chunk. Deleted targets are
 * checked under the lock against deletes. Visitors go first: their inserts say how many are new, which
 * the counters then add; pairs this writer committed lately are not sent again (see KnownVisitors).
 */
export function kyselyBatchWriter(db: Db, aggregate: Aggregator): BatchWriter {
  const pruneDue = pruneSchedule();
  const known = new KnownVisitors();
  let hooks: KyselyBatchHook[] | undefined;
  const write = async (batch: VisitBatch) => {
    const before = pruneDue();
    if (before) {
      known.clear();
      await forget.pruneDeletedTargets(db, before);
    }
    const { targets: batched, visits } = aggregate(batch);
    if (batched.length === 0) return;
    known.rollback();
    await db.transaction().execute(async (trx) => {
      await forget.lockAgainst(trx, 'deletes');
      const targets = await withoutDeleted(trx, batched);
      const unknown = targets.flatMap((t) => (isVariant(t) ? [] : unknownRows(known, t)));
      const inserted = await repo.insertUniques(trx, unknown);
      const newcomers = new Map<number, number[]>(); // a link's comes before its variants' (kind order)
      const fresh = targets.map((t) => {
        if (isVariant(t)) return variantFresh(t, newcomers.get(t.id) ?? []);
        const served = t.variantOf ? [] : undefined;
        if (served) newcomers.set(t.id, served);
        return freshVisitors(t, (visitor) => inserted.has(`${targetKey(t.kind, t.id)}:${visitor}`), served);
      });
      await repo.upsertStats(trx, targets.flatMap(referrerRows));
      await repo.upsertHours(
        trx,
        targets.flatMap((t, i) => (isVariant(t) ? [...earlierHourRows(t, fresh[i]!), variantHourRow(t, fresh[i]!)] : earlierHourRows(t, fresh[i]!))),
      );
      const packs = await repo.insertPacks(trx, targets, packer(visits));
      await repo.upsertSummaries(
        trx,
        targets.flatMap((t, i) => (isVariant(t) ? [] : [summaryRow(t, fresh[i]!, packs.get(targetKey(t.kind, t.id)) ?? null)])),
      );
      const accounts = new AccountHours();
      targets.forEach((t, i) => accounts.add(t, fresh[i]!));
      await upsertAccountHours(trx, accounts.rows());
      hooks ??= clickBatchHooks().kysely.map((make) => make());
      for (const hook of hooks) await hook(trx, targets.map(clicked));
      if (batch.journal) await markJournal(trx, batch.journal);
    });
    known.commit();
  };
  return { write, close: async () => {} };
}

const clicked = (t: TargetBatch): ClickedTarget => ({ kind: t.kind, id: t.id, owner: t.owner, clicks: t.clicks });

/** The target's visitor rows not known stored, in lock order; those of a recurring target are remembered at the commit. */
function unknownRows(known: KnownVisitors, target: TargetBatch): ClickUniquesTable[] {
  const memory = known.of(target);
  return uniqueRows(target).filter((row) => {
    if (memory?.has(row.visitor_hash)) return false;
    if (memory) known.stored(memory, row.visitor_hash);
    return true;
  });
}

async function withoutDeleted(db: Db, targets: TargetBatch[]): Promise<TargetBatch[]> {
  const deleted = new Set<string>();
  for (const kind of KINDS) {
    const ids = [...new Set(targets.filter((t) => forget.tombstoneKind(t.kind) === kind).map((t) => t.id))];
    if (ids.length === 0) continue;
    for (const id of await forget.deletedTargets(db, kind, ids)) deleted.add(targetKey(kind, id));
  }
  return targets.filter((t) => !deleted.has(targetKey(forget.tombstoneKind(t.kind), t.id)));
}

/** Deleted targets read whole once per batch while at most this many are remembered; past it, one read per target. */
const DELETED_READ_MAX = 2_000;

/**
 * SQLite: the same writes through statements prepared once, in one synchronous transaction, target by
 * target so each one's rows are written while their pages are at hand (docs/performance.md#prepared-writes).
 * Used by the writer thread (src/clicks/click-writer-thread.ts).
 */
export function sqliteClickWriter(
  sqlite: SQLite.Database,
  hooks: Array<(targets: ClickedTarget[]) => void> = [],
): (batch: AggregatedBatch, journal?: JournalMark) => void {
  const isDeleted = deletedTargetsOf(sqlite);
  const prune = sqlite.prepare('DELETE FROM deleted_targets WHERE deleted_at < ?');
  const pruneDue = pruneSchedule();
  const stat = sqlite.prepare(`INSERT INTO click_stats (target_kind, target_id, dimension, label, count) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (target_kind, target_id, dimension, label) DO UPDATE SET count = count + excluded.count`);
  const summary = sqlite.prepare(`INSERT INTO click_summaries (target_kind, target_id, clicks, uniques, labels, hour, hour_clicks, hour_uniques,
    visit_pack, visit_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (target_kind, target_id) DO UPDATE SET clicks = clicks + excluded.clicks,
    uniques = uniques + excluded.uniques, labels = ${repo.MERGE_LABELS_SQLITE}, ${repo.OPEN_HOUR_SET_SQL}, ${repo.VISIT_PACK_SET_SQL}`);
  const unique = sqlite.prepare('INSERT OR IGNORE INTO click_uniques (target_kind, target_id, visitor_hash) VALUES (?, ?, ?)');
  const hour = sqlite.prepare(`INSERT INTO click_hours (target_kind, target_id, hour, clicks, uniques) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (target_kind, target_id, hour) DO UPDATE SET clicks = clicks + excluded.clicks, uniques = uniques + excluded.uniques`);
  const accountHour = sqlite.prepare(`INSERT INTO account_hours (user_id, hour, clicks, uniques) VALUES (?, ?, ?, ?)
    ON CONFLICT (user_id, hour) DO UPDATE SET clicks = clicks + excluded.clicks, uniques = uniques + excluded.uniques`);
  const markJournalRow = sqlite.prepare(MARK_JOURNAL_SQL);
  const insertPack = sqlite.prepare('INSERT INTO visit_packs (target_kind, target_id, owner, at, n, labels, codes) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const logged = (target: TargetBatch, pack: Packer) => {
    const p = pack(target.logged);
    return p ? { pack: Number(insertPack.run(target.kind, target.id, target.owner, p.at, p.n, p.labels, p.codes).lastInsertRowid), n: p.n } : null;
  };
  const known = new KnownVisitors();
  const freshOf = (target: TargetBatch, newcomers?: number[]) => {
    const memory = known.of(target);
    return freshVisitors(
      target,
      (visitor) => {
        if (memory?.has(visitor)) return false;
        if (memory) known.stored(memory, visitor);
        return unique.run(target.kind, target.id, visitor).changes > 0;
      },
      newcomers,
    );
  };
  const write = sqlite.transaction(({ targets, visits }: AggregatedBatch, journal?: JournalMark) => {
    const before = pruneDue();
    if (before) {
      known.clear();
      prune.run(before);
    }
    const accounts = new AccountHours();
    const pack = packer(visits);
    const deleted = isDeleted();
    const counted: ClickedTarget[] = [];
    const newcomers = new Map<number, number[]>(); // a link's comes before its variants' (kind order)
    for (const target of targets) {
      if (deleted(target)) continue; // deleted since the visit
      if (hooks.length > 0) counted.push(clicked(target));
      if (isVariant(target)) {
        const fresh = variantFresh(target, newcomers.get(target.id) ?? []);
        for (const h of [...earlierHourRows(target, fresh), variantHourRow(target, fresh)])
          hour.run(h.target_kind, h.target_id, h.hour, h.clicks, h.uniques);
        continue;
      }
      const served = target.variantOf ? [] : undefined;
      if (served) newcomers.set(target.id, served);
      const fresh = freshOf(target, served);
      for (const h of earlierHourRows(target, fresh)) hour.run(h.target_kind, h.target_id, h.hour, h.clicks, h.uniques);
      const s = summaryRow(target, fresh, logged(target, pack));
      summary.run(s.target_kind, s.target_id, s.clicks, s.uniques, s.labels, s.hour, s.hour_clicks, s.hour_uniques, s.visit_pack, s.visit_count);
      for (const r of referrerRows(target)) stat.run(r.target_kind, r.target_id, r.dimension, r.label, r.count);
      accounts.add(target, fresh);
    }
    for (const a of accounts.rows()) accountHour.run(a.user_id, a.hour, a.clicks, a.uniques);
    for (const hook of hooks) hook(counted);
    if (journal) markJournalRow.run(journal.journal, journal.seq);
  });
  return (batch, journal) => {
    known.rollback();
    write.immediate(batch, journal);
    known.commit();
  };
}

/**
 * Which targets were deleted since their visits (a split variant with its link), read in the batch's transaction:
 * the few remembered deletions (a day's) in one query, instead of a lookup per target; many of them, a lookup per target.
 */
function deletedTargetsOf(sqlite: SQLite.Database): () => (target: TargetBatch) => boolean {
  const one = sqlite.prepare('SELECT 1 FROM deleted_targets WHERE target_kind = ? AND target_id = ?').pluck();
  const all = sqlite.prepare('SELECT target_kind, target_id FROM deleted_targets LIMIT ?').raw();
  return () => {
    const rows = all.all(DELETED_READ_MAX + 1) as [TargetKind, number][];
    if (rows.length === 0) return () => false;
    if (rows.length > DELETED_READ_MAX) return (target) => one.get(forget.tombstoneKind(target.kind), target.id) !== undefined;
    const keys = new Set(rows.map(([kind, id]) => targetKey(kind, id)));
    return (target) => keys.has(targetKey(forget.tombstoneKind(target.kind), target.id));
  };
}
