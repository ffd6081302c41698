import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { kyselyBatchWriter } from './batch-writers.js';
import { clickAggregator } from './derive.js';
import { threadBatchWriter } from './click-writer-client.js';
import { loadGeoDatabase } from '../lib/geo.js';
import { batchLength, DEFAULT_RULE, VisitBuffer } from './visit-columns.js';
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
    options;
    /** Sealed batches of at most batchMax visits, oldest first, then the one still filling. */
    batches = [];
    filling = new VisitBuffer();
    sealed = 0;
    running = null;
    kicked = false;
    dropped = 0;
    timer;
    maxPending;
    writer;
    constructor(options) {
        this.options = options;
        this.maxPending = options.maxPending ?? Math.max(options.batchMax * 2, MAX_PENDING);
        this.writer = this.makeWriter(options);
        try {
            loadGeoDatabase(options.geoipMmdb || undefined);
        }
        catch (error) {
            options.log.error({ err: error }, 'country database could not be loaded; countries will be Unknown');
        }
        this.timer = setInterval(() => {
            if (!this.running)
                void this.flush();
        }, options.flushMs);
        this.timer.unref();
    }
    /** Visits waiting to be written. */
    get pending() {
        return this.sealed + this.filling.length;
    }
    /** Hot path: append to columns and return. Parsing happens at flush time, off the request; the hour is
     *  taken here (from the request's own `now` when it has one), as a batch may straddle an hour. `rule` is the
     *  target rule that chose the destination (a constant string of the compiled link), for the visit log. */
    record(kind, id, owner, visit, rule = DEFAULT_RULE) {
        if (this.pending >= this.maxPending) {
            this.dropped += 1;
            return;
        }
        this.filling.append(kind, id, owner, visit, visit.now ?? Date.now(), rule);
        if (this.filling.length < this.options.batchMax)
            return;
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
    async flush() {
        if (this.filling.length > 0)
            this.push(this.filling.seal());
        await this.writeSealed();
    }
    /** Visits that arrive meanwhile keep filling a batch: written one by one, they would make many small ones. */
    async writeSealed() {
        while (this.running)
            await this.running;
        if (this.batches.length === 0)
            return;
        this.running = this.drain().finally(() => {
            this.running = null;
        });
        await this.running;
    }
    /** Stops the timer and writes everything pending; awaited on graceful shutdown. */
    async close() {
        clearInterval(this.timer);
        for (let attempt = 1; attempt <= CLOSE_ATTEMPTS && this.pending > 0; attempt++) {
            if (attempt > 1)
                await sleep(100 * attempt);
            await this.flush();
        }
        if (this.pending > 0)
            this.options.log.error({ lost: this.pending }, 'clicks could not be written before shutdown');
        await this.writer.close();
    }
    async drain() {
        if (this.dropped > 0) {
            this.options.log.error({ dropped: this.dropped }, 'click queue was full; visits were not counted');
            this.dropped = 0;
        }
        while (this.batches.length > 0) {
            const batch = this.batches[0];
            try {
                await this.writer.write(batch);
            }
            catch (error) {
                // The batch stays first in line; it counts towards maxPending meanwhile, so nothing overflows.
                this.options.log.error({ err: error, pending: this.pending }, 'click batch failed; will retry');
                return; // the next timer tick retries
            }
            this.batches.shift();
            this.sealed -= batchLength(batch);
            await nextTurn(); // better-sqlite3 is synchronous: let requests in between batches
        }
    }
    push(batch) {
        this.batches.push(batch);
        this.sealed += batchLength(batch);
    }
    makeWriter(options) {
        const { db, sqlitePath, secret, geoipMmdb, log, visitLog = true } = options;
        if (sqlitePath && sqlitePath !== ':memory:')
            return threadBatchWriter({ path: sqlitePath, secret, geoipMmdb, visitLog }, log);
        return kyselyBatchWriter(db, clickAggregator(secret, { visitLog }));
    }
}
//# sourceMappingURL=recorder.js.map