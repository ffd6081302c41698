import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { TargetKind } from '../../db/types.js';
import { kyselyBatchWriter, type BatchWriter } from './batch-writers.js';
import { clickDeriver, type PendingClick } from './derive.js';
import { threadBatchWriter } from './thread-writer.js';
import { loadGeoDatabase } from './geo.js';

/** The raw facts of one visit, captured on the request path; everything else is derived off it. */
export interface Visit {
  ip: string;
  userAgent: string;
  referer: string;
}

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
  /** Most visits held in memory (the database failing or falling behind); beyond it visits are dropped and logged. */
  maxPending?: number;
}

const CLOSE_ATTEMPTS = 3;
/** About 60 MB of raw visits: minutes of a busy node's traffic while the database is away. */
const MAX_PENDING = 250_000;

/**
 * Batches clicks and scans off the request path. `record` only queues the raw visit; a flush (every
 * flushMs, or as soon as batchMax visits wait) parses them, drops bots and writes each batch in one
 * transaction: unique visitors and the running aggregates with the targets' counters. Flushes never
 * overlap; a failed batch goes back to the front of the queue and is retried, so a visit counts once.
 */
export class ClickRecorder {
  private queue: PendingClick[] = [];
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
    return this.queue.length;
  }

  /** Hot path: queue and return. Parsing happens at flush time, off the request. */
  record(kind: TargetKind, id: number, visit: Visit): void {
    if (this.queue.length >= this.maxPending) {
      this.dropped += 1;
      return;
    }
    this.queue.push({ kind, id, visit });
    if (this.queue.length >= this.options.batchMax && !this.running && !this.kicked) {
      this.kicked = true;
      setImmediate(() => {
        this.kicked = false;
        void this.flush();
      });
    }
  }

  /** Writes everything queued so far (and whatever arrives meanwhile); never throws, failures are logged and retried. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.queue.length === 0) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /** Stops the timer and writes everything pending; awaited on graceful shutdown. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (let attempt = 1; attempt <= CLOSE_ATTEMPTS && this.queue.length > 0; attempt++) {
      if (attempt > 1) await sleep(100 * attempt);
      await this.flush();
    }
    if (this.queue.length > 0) this.options.log.error({ lost: this.queue.length }, 'clicks could not be written before shutdown');
    await this.writer.close();
  }

  private async drain(): Promise<void> {
    if (this.dropped > 0) {
      this.options.log.error({ dropped: this.dropped }, 'click queue was full; visits were not counted');
      this.dropped = 0;
    }
    while (this.queue.length > 0) {
      const { batchMax } = this.options;
      const batch = this.queue.length <= batchMax ? this.queue : this.queue.slice(0, batchMax);
      this.queue = batch === this.queue ? [] : this.queue.slice(batchMax);
      try {
        await this.write(batch);
      } catch (error) {
        this.requeue(batch, error);
        return; // the next timer tick retries
      }
      await nextTurn(); // better-sqlite3 is synchronous: let requests in between batches
    }
  }

  private requeue(batch: PendingClick[], error: unknown): void {
    this.queue = batch.concat(this.queue);
    const excess = this.queue.length - this.maxPending;
    if (excess > 0) this.queue = this.queue.slice(excess);
    this.options.log.error({ err: error, pending: this.queue.length, dropped: Math.max(0, excess) }, 'click batch failed; will retry');
  }

  private write(batch: PendingClick[]): Promise<void> {
    return this.writer.write(batch);
  }

  private makeWriter(options: ClickRecorderOptions): BatchWriter {
    const { db, sqlitePath, secret, geoipMmdb, log } = options;
    if (sqlitePath && sqlitePath !== ':memory:') return threadBatchWriter({ path: sqlitePath, secret, geoipMmdb }, log);
    return kyselyBatchWriter(db, clickDeriver(secret));
  }
}
