import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { TargetKind } from '../db/types.js';
import { kyselyBatchWriter, type BatchWriter } from './batch-writers.js';
import { clickAggregator } from './derive.js';
import { threadBatchWriter } from './click-writer-client.js';
import { loadGeoDatabase } from '../infra/geo.js';
import { batchLength, DEFAULT_RULE, VisitBuffer, type Visit, type VisitBatch } from './visit-columns.js';

export interface ClickRecorderOptions {
  db: Db;
  /** The SQLite file when the database is SQLite: batches are then parsed and written by a thread of
   *  their own with a connection of its own (`:memory:` cannot be shared: Kysely writes those). */
  sqlitePath?: string;
  log: Logger;
  secret: string;
  flushMs: number;
  batchMax: number;
  /** A MaxMind-format country database to use instead of the bundled one (config GEOIP_MMDB). */
  geoipMmdb?: string;
  /** Whether counted visits are also appended to the visit log (VISIT_LOG_DAYS > 0). */
  visitLog?: boolean;
  /** Most visits held in memory (the database failing or falling behind); beyond it visits are dropped and logged. */
  maxPending?: number;
}

const CLOSE_ATTEMPTS = 3;
/** About 6 MB of columns (plus each distinct header once): a busy node's traffic while the database is away. */
const MAX_PENDING = 250_000;

/**
 * Batches clicks and scans off the request path. `record` only appends the raw visit to columns; a
 * batch is written as soon as batchMax visits wait, and every flushMs whatever has gathered. Each is
 * parsed (bots dropped) and written in one transaction: unique visitors and the running aggregates
 * with the targets' counters. The larger a batch, the more of its visits share a row update. Writes
 * never overlap; a failed batch stays first in line and is retried, so a visit counts once.
 */
export class ClickRecorder {
  /** Sealed batches of at most batchMax visits, oldest first, then the one still filling. */
  private batches: VisitBatch[] = [];
  private readonly filling = new VisitBuffer();
  private sealed = 0;
  private running: Promise<void> | null = null;
  private kicked = false;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly maxPending: number;
  private readonly writer: BatchWriter;

  constructor(readonly options: ClickRecorderOptions) {
    this.maxPending = options.maxPending ?? Math.max(options.batchMax * 2, MAX_PENDING);
    this.writer = this.makeWriter(options);
    try {
      loadGeoDatabase(options.geoipMmdb || undefined);
    } catch (error) {
      options.log.error({ err: error }, 'country database could not be loaded; countries will be Unknown');
    }
    this.timer = setInterval(() => {
      if (!this.running) void this.flush();
    }, options.flushMs);
    this.timer.unref();
  }

  /** Visits waiting to be written. */
  get pending(): number {
    return this.sealed + this.filling.length;
  }

  /** Hot path: append to columns and return. Parsing happens at flush time, off the request; the hour is
   *  taken here (from the request's own `now` when it has one), as a batch may straddle an hour. `rule` is the
   *  target rule that chose the destination (a constant string of the compiled link), for the visit log. */
  record(kind: TargetKind, id: number, owner: number, visit: Visit, rule: string = DEFAULT_RULE): void {
    if (this.pending >= this.maxPending) {
      this.dropped += 1;
      return;
    }
    this.filling.append(kind, id, owner, visit, visit.now ?? Date.now(), rule);
    if (this.filling.length < this.options.batchMax) return;
    this.push(this.filling.seal());
    if (!this.running && !this.kicked) {
      this.kicked = true;
      setImmediate(() => {
        this.kicked = false;
        void this.writeSealed();
      });
    }
  }

  /** Writes everything queued so far; never throws, failures are logged and retried. */
  async flush(): Promise<void> {
    if (this.filling.length > 0) this.push(this.filling.seal());
    await this.writeSealed();
  }

  /** Visits that arrive meanwhile keep filling a batch: written one by one, they would make many small ones. */
  private async writeSealed(): Promise<void> {
    while (this.running) await this.running;
    if (this.batches.length === 0) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /** Stops the timer and writes everything pending; awaited on graceful shutdown. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (let attempt = 1; attempt <= CLOSE_ATTEMPTS && this.pending > 0; attempt++) {
      if (attempt > 1) await sleep(100 * attempt);
      await this.flush();
    }
    if (this.pending > 0) this.options.log.error({ lost: this.pending }, 'clicks could not be written before shutdown');
    await this.writer.close();
  }

  private async drain(): Promise<void> {
    if (this.dropped > 0) {
      this.options.log.error({ dropped: this.dropped }, 'click queue was full; visits were not counted');
      this.dropped = 0;
    }
    while (this.batches.length > 0) {
      const batch = this.batches[0]!;
      try {
        await this.writer.write(batch);
      } catch (error) {
        // The batch stays first in line; it counts towards maxPending meanwhile, so nothing overflows.
        this.options.log.error({ err: error, pending: this.pending }, 'click batch failed; will retry');
        return; // the next timer tick retries
      }
      this.batches.shift();
      this.sealed -= batchLength(batch);
      await nextTurn(); // better-sqlite3 is synchronous: let requests in between batches
    }
  }

  private push(batch: VisitBatch): void {
    this.batches.push(batch);
    this.sealed += batchLength(batch);
  }

  private makeWriter(options: ClickRecorderOptions): BatchWriter {
    const { db, sqlitePath, secret, geoipMmdb, log, visitLog = true } = options;
    if (sqlitePath && sqlitePath !== ':memory:') return threadBatchWriter({ path: sqlitePath, secret, geoipMmdb, visitLog }, log);
    return kyselyBatchWriter(db, clickAggregator(secret, { visitLog }));
  }
}
