import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../db/connect.js';
import { sqliteClickWriter } from './batch-writers.js';
import { clickAggregator } from './derive.js';
import { loadGeoDatabase, type SharedGeoDatabase } from '../infra/geo.js';
import type { VisitBatch } from './visit-columns.js';
import type { SqliteBatchHookModule } from './batch-hooks.js';

/**
 * The click writer thread (SQLite): its own connection to the database file. It parses each batch of
 * raw visits (user agent, country, referrer, visitor hash) and writes it in one transaction, so neither
 * the parsing nor the disk ever holds up the thread that answers requests.
 */
export interface WriterThreadData {
  path: string;
  secret: string;
  geoipMmdb?: string;
  /** The main thread's loaded country database (shared memory), so the thread holds no copy of its own. */
  geo?: SharedGeoDatabase;
  visitLog: boolean;
  /** Modules of the batch hooks (src/clicks/batch-hooks.ts), loaded here: they run in each batch's transaction. */
  hooks?: string[];
}

export type WriterRequest = { id: number; batch: VisitBatch };
/** `ms`: the write's own time, measured here, for the batch-duration metric (the reply is sent anyway). */
export type WriterReply = { id: number; error?: string; ms?: number };

const data = workerData as WriterThreadData;
// Half SQLite's default of 16 MB: at 1M links a batch's pages outnumber either size, and at 1k the tables
// fit in either; the writer's CPU per visit measured the same (docs/performance.md#rss-at-1m).
const WRITER_CACHE_KIB = 8_000;
const sqlite = openSqlite(data.path, WRITER_CACHE_KIB);
try {
  loadGeoDatabase(data.geoipMmdb || undefined, data.geo);
} catch {
  // countryOf answers null without a database; the main thread logs the load failure.
}
const aggregate = clickAggregator(data.secret, { visitLog: data.visitLog });
const hooks = await Promise.all((data.hooks ?? []).map(async (href) => ((await import(href)) as SqliteBatchHookModule).sqliteBatchHook(sqlite)));
const write = sqliteClickWriter(sqlite, hooks);

parentPort!.on('message', ({ id, batch }: WriterRequest) => {
  try {
    const started = performance.now();
    write(aggregate(batch), batch.journal);
    parentPort!.postMessage({ id, ms: performance.now() - started } satisfies WriterReply);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies WriterReply);
  }
});
