import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { TargetKind } from '../db/types.js';
import { kyselyBatchWriter, type BatchWriter } from './batch-writers.js';
import { clickAggregator } from './derive.js';
import { threadBatchWriter } from './click-writer-client.js';
import { loadGeoDatabase, sharedGeoDatabase } from '../infra/geo.js';
import { HeldAnswers, type Send } from './journal/held-answers.js';
import { ClickJournal, dropSegment } from './journal/segments.js';
import { forgetJournal } from './journal/repo.js';
import { journalId } from './journal/replay.js';
import { replayAbandoned } from './journal/recovery.js';
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
  /** Where each process keeps its click journal (config CLICK_JOURNAL_DIR); unset, none is kept. */
  journalDir?: string;
  /** Most visits held in memory (the database failing or falling behind); beyond it visits are dropped and logged. */
  maxPending?: number;
  /** Called once per committed batch with the write's milliseconds and its visits (the metrics' histograms). */
  onBatch?: (ms: number, visits: number) => void;
}

const CLOSE_ATTEMPTS = 3;
/** About 6 MB of columns (plus each distinct header once): a busy node's traffic while the database is away. */
const MAX_PENDING = 250_000;

/** A sealed batch waiting for the writer; `segment` is its journal file, deleted once it is committed. */
interface Queued {
  batch: VisitBatch;
  segment?: string;
  committed?: () => void;
}

/**
 * Batches clicks and scans off the request path. `record` only appends the raw visit to columns; a
 * batch is written as soon as batchMax visits wait, or once it has been filling for flushMs. Each is
 * parsed (bots dropped) and written in one transaction: unique visitors and the running aggregates
 * with the targets' counters. The larger a batch, the more of its visits share a row update. Writes
 * never overlap; a failed batch stays first in line and is retried, so a visit counts once.
 */
export class ClickRecorder {
  /** Sealed batches of at most batchMax visits, oldest first, then the one still filling. */
  private batches: Queued[] = [];
  private readonly filling = new VisitBuffer();
  private sealed = 0;
  private running: Promise<void> | null = null;
  private kicked = false;
  private dropped = 0;
  private droppedBefore = 0;
  /** When the filling batch started (the last seal): it is written once it is flushMs old. */
  private sealedAt = Date.now();
  private readonly timer: NodeJS.Timeout;
  private readonly maxPending: number;
  private readonly writer: BatchWriter;
  private readonly journal: ClickJournal | null;
  private readonly answers: HeldAnswers;
  private closing = false;
  private readonly replay: Promise<void>;

  constructor(readonly options: ClickRecorderOptions) {
    this.maxPending = options.maxPending ?? Math.max(options.batchMax * 2, MAX_PENDING);
    // Loaded before the writer thread starts, which is handed the same bytes.
    try {
      loadGeoDatabase(options.geoipMmdb || undefined);
    } catch (error) {
      options.log.error({ err: error }, 'country database could not be loaded; countries will be Unknown');
    }
    this.writer = this.makeWriter(options);
    const root = options.journalDir;
    const id = root ? journalId() : '';
    this.journal = root ? new ClickJournal(`${root}/${id}`, id, options.log) : null;
    this.answers = new HeldAnswers(() => this.journalNow(), options.log);
    this.replay = this.journal ? replayAbandoned(root!, this.journal, this.recovery()) : Promise.resolve();
    // Checked four times an interval: a batch sealed full between two checks still fills for flushMs, where
    // a fixed interval wrote its remainder as a small batch of its own (docs/performance.md#batch-age).
    this.timer = setInterval(
      () => {
        if (!this.running && Date.now() - this.sealedAt >= options.flushMs) void this.flush();
      },
      Math.max(1, options.flushMs / 4),
    );
    this.timer.unref();
  }

  /** Visits waiting to be written. */
  get pending(): number {
    return this.sealed + this.filling.length;
  }

  /** Visits dropped since start because the queue was full. */
  get droppedTotal(): number {
    return this.droppedBefore + this.dropped;
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
    this.sealFilling();
    if (!this.running && !this.kicked) {
      this.kicked = true;
      setImmediate(() => {
        this.kicked = false;
        void this.writeSealed();
      });
    }
  }

  /**
   * Sends an answer that recorded a click once the click is in the journal: held answers go out right
   * after one journal write per event-loop turn, so a kill never loses a click whose answer was sent.
   */
  hold<A, B>(send: Send<A, B>, a: A, b: B): void {
    if (this.journal?.behind(this.filling)) this.answers.hold(send, a, b);
    else send(a, b);
  }

  /** Journals the clicks recorded so far now, for callers that answer right after recording (rare routes). */
  journalNow(): void {
    this.journal?.write(this.filling);
  }

  /** Writes everything queued so far; never throws, failures are logged and retried. */
  async flush(): Promise<void> {
    if (this.filling.length > 0) this.sealFilling();
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
    this.closing = true;
    for (let attempt = 1; attempt <= CLOSE_ATTEMPTS && this.pending > 0; attempt++) {
      if (attempt > 1) await sleep(100 * attempt);
      await this.flush();
    }
    for (const queued of this.batches) queued.committed?.(); // a replay stops there; its segments wait for the next start
    await this.replay;
    if (this.pending > 0)
      this.options.log.error({ pending: this.pending }, 'clicks could not be written before shutdown; the next start replays their journal');
    await this.writer.close();
    if (this.journal?.close()) await forgetJournal(this.options.db, this.journal.id).catch(() => {});
  }

  private async drain(): Promise<void> {
    if (this.dropped > 0) {
      this.options.log.error({ dropped: this.dropped }, 'click queue was full; visits were not counted');
      this.droppedBefore += this.dropped;
      this.dropped = 0;
    }
    while (this.batches.length > 0) {
      const { batch, segment, committed } = this.batches[0]!;
      const started = performance.now();
      let ms: number | void;
      try {
        ms = await this.writer.write(batch);
      } catch (error) {
        // The batch stays first in line; it counts towards maxPending meanwhile, so nothing overflows.
        this.options.log.error({ err: error, pending: this.pending }, 'click batch failed; will retry');
        return; // the next timer tick retries
      }
      this.batches.shift();
      this.sealed -= batchLength(batch);
      this.options.onBatch?.(ms ?? performance.now() - started, batchLength(batch));
      if (segment) dropSegment(segment);
      committed?.();
      await nextTurn(); // better-sqlite3 is synchronous: let requests in between batches
    }
  }

  /** The filling batch, journaled to its end, goes in line; it carries its journal mark to the writer. */
  private sealFilling(): void {
    this.sealedAt = Date.now();
    this.journal?.write(this.filling);
    const segment = this.journal?.seal();
    const batch = this.filling.seal();
    if (segment) batch.journal = { journal: segment.journal, seq: segment.seq };
    this.push({ batch, segment: segment?.path });
  }

  private push(queued: Queued): void {
    this.batches.push(queued);
    this.sealed += batchLength(queued.batch);
  }

  /** What a replay of abandoned journals needs: their batches go through the same line and writer. */
  private recovery() {
    return {
      db: this.options.db,
      log: this.options.log,
      closing: () => this.closing,
      write: (batch: VisitBatch, segment: string) =>
        new Promise<void>((committed) => {
          this.push({ batch, segment, committed });
          void this.writeSealed();
        }),
    };
  }

  private makeWriter(options: ClickRecorderOptions): BatchWriter {
    const { db, sqlitePath, secret, geoipMmdb, log, visitLog = true } = options;
    if (sqlitePath && sqlitePath !== ':memory:')
      return threadBatchWriter({ path: sqlitePath, secret, geoipMmdb, geo: sharedGeoDatabase(), visitLog }, log);
    return kyselyBatchWriter(db, clickAggregator(secret, { visitLog }));
  }
}
