import { statSync } from 'node:fs';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { WorkerMetrics } from './cluster.js';
import { LINK_CACHE_HIT, LINK_CACHE_MISS, OUTCOMES, RATE_SCOPES, type Counters } from './counters.js';

/** What the registry reads at scrape time; each source is the owner's own figure, never a copy kept in step. */
export interface MetricSources {
  counters: Counters;
  /** Visits recorded and not yet written (the click queue). */
  queueDepth(): number;
  /** Visits dropped since start because the queue was full. */
  dropped(): number;
  /** PostgreSQL: the pg pool's own counts. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number };
  /** SQLite: the database file, whose size and write-ahead log are what an operator watches. */
  sqliteFile?: string;
}

/** Seconds; a batch is one transaction of up to CLICK_BATCH_MAX visits. */
const BATCH_SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_SIZES = [1, 10, 100, 1_000, 5_000, 10_000, 25_000, 50_000, 100_000];
const STATUS_CLASS = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'];
const API_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * One process's Prometheus registry. The redirect path's figures are plain counters (counters.ts) copied in
 * by collect() callbacks when scraped; the API latency and the click batches are observed directly, once per
 * API request and once per batch. Only made when metrics are enabled (METRICS_TOKEN or METRICS_PORT).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly apiSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly batchSeconds: Histogram;
  private readonly batchSize: Histogram;
  private readonly scrape: WorkerMetrics;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.apiSeconds = new Histogram({
      name: 'redirectory_api_request_duration_seconds',
      help: 'API requests (/api/…) by method, route pattern and status class (2xx, 4xx, 5xx), from the request to the last byte of the answer.',
      labelNames: ['method', 'route', 'status'],
      buckets: API_SECONDS,
      registers,
    });
    this.batchSeconds = new Histogram({
      name: 'redirectory_click_batch_write_seconds',
      help: 'Time to write one click batch (parse and one transaction; on SQLite measured in the writer thread).',
      buckets: BATCH_SECONDS,
      registers,
    });
    this.batchSize = new Histogram({
      name: 'redirectory_click_batch_size',
      help: 'Visits in one written click batch.',
      buckets: BATCH_SIZES,
      registers,
    });
    registerCounters(registers, sources);
    registerGauges(registers, sources);
    this.scrape = new WorkerMetrics(this.registry);
  }

  /**
   * One API answer; `route` is the route's pattern (`/api/url/:id/update`), never the raw URL. The status is
   * its class: a label per code would multiply each route's 15 series by every code it can answer.
   */
  observeApi(method: string, route: string, status: number, seconds: number): void {
    this.apiSeconds.observe({ method, route, status: STATUS_CLASS[Math.floor(status / 100)] ?? 'other' }, seconds);
  }

  /** One click batch committed. */
  observeBatch(ms: number, visits: number): void {
    this.batchSeconds.observe(ms / 1000);
    this.batchSize.observe(visits);
  }

  /** The text a scrape answers: this process's registry, or in a WORKERS=N cluster the sum of every worker's. */
  text(): Promise<string> {
    return this.scrape.text();
  }

  close(): void {
    this.scrape.close();
    this.registry.clear();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

function registerCounters(registers: Registry[], { counters, dropped }: MetricSources): void {
  new Counter({
    name: 'redirectory_redirects_total',
    help: 'GET and HEAD requests of /{alias}, by outcome: redirect (302 to a destination), page (frame, splash, overlay or pixel page), preview (Open Graph page for a link preview), password (the form), expired (expired or used up), not_found, bio.',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      OUTCOMES.forEach((outcome, i) => this.inc({ outcome }, counters.redirects[i]!));
    },
  });
  copyCounter(
    registers,
    'redirectory_link_cache_hits_total',
    'Link lookups answered from memory (cache, resident index or a remembered miss).',
    () => counters.linkCache[LINK_CACHE_HIT]!,
  );
  copyCounter(registers, 'redirectory_link_cache_misses_total', 'Link lookups that read the database.', () => counters.linkCache[LINK_CACHE_MISS]!);
  copyCounter(registers, 'redirectory_clicks_dropped_total', 'Visits not counted because the click queue was full.', dropped);
  new Counter({
    name: 'redirectory_rate_limited_total',
    help: 'Requests refused with 429, by scope: api (a key, session or sign-in budget) or public (POST budget, password tries, QR renders).',
    labelNames: ['scope'],
    registers,
    collect() {
      this.reset();
      RATE_SCOPES.forEach((scope, i) => this.inc({ scope }, counters.rateLimited[i]!));
    },
  });
  new Counter({
    name: 'redirectory_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result.',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset();
      for (const [result, count] of counters.deliveryCounts()) this.inc({ result }, count);
    },
  });
}

function copyCounter(registers: Registry[], name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function registerGauges(registers: Registry[], { queueDepth, pool, sqliteFile }: MetricSources): void {
  new Gauge({
    name: 'redirectory_click_queue_depth',
    help: 'Visits recorded and not yet written to the database.',
    registers,
    collect() {
      this.set(queueDepth());
    },
  });
  if (pool) {
    new Gauge({
      name: 'redirectory_db_pool_connections',
      help: 'PostgreSQL pool connections by state: total (open), idle, waiting (queries waiting for a connection).',
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  if (sqliteFile) {
    new Gauge({
      name: 'redirectory_sqlite_file_bytes',
      help: 'SQLite: size of the database file and of its write-ahead log (a WAL that keeps growing means checkpoints cannot finish).',
      labelNames: ['file'],
      // Every worker sees the same files: the largest, not the sum.
      aggregator: 'max',
      registers,
      collect() {
        this.set({ file: 'db' }, sizeOf(sqliteFile));
        this.set({ file: 'wal' }, sizeOf(`${sqliteFile}-wal`));
      },
    });
  }
}

function sizeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}
