import type SQLite from 'better-sqlite3';
import type { Db } from '../db/connect.js';
import type { CountedKind } from '../db/types.js';

/**
 * What a batch of clicks tells others (a feature's outbox: the webhooks' link.clicked), inside the batch's
 * own transaction, so it is told exactly when the clicks are counted. The clicks layer imports no feature:
 * the composition root (src/compose.ts) plugs the hooks in. On SQLite the batch is written by the writer
 * thread, which loads each hook from its module (its URL travels in the thread's data).
 */

/** One target's clicks in a committed batch. */
export interface ClickedTarget {
  kind: CountedKind;
  id: number;
  /** The account owning the target. */
  owner: number;
  clicks: number;
}

/** Kysely writers (PostgreSQL): one per writer, made at its first batch; called with the batch's transaction. */
export type KyselyBatchHook = (trx: Db, targets: ClickedTarget[]) => Promise<void>;

/** The SQLite writer thread: a hook module exports `sqliteBatchHook`, called once with the thread's connection. */
export interface SqliteBatchHookModule {
  sqliteBatchHook(sqlite: SQLite.Database): (targets: ClickedTarget[]) => void;
}

export interface BatchHooks {
  kysely: Array<() => KyselyBatchHook>;
  /** URLs of modules exporting `sqliteBatchHook`, for the writer thread. */
  modules: string[];
}

let plugged: BatchHooks = { kysely: [], modules: [] };

/** The hooks plugged in; none until the composition root runs (the CLI never records clicks). */
export const clickBatchHooks = Object.assign(() => plugged, {
  plug(hooks: BatchHooks): void {
    plugged = hooks;
  },
});
