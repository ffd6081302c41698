import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { Insertable } from 'kysely';
import type { TargetKind, VisitsTable } from '../db/types.js';
import type { AgentCodes, BatchLabels, ReferrerCodes } from './derive.js';
import { scheduleHourly } from './retention.js';
import { FIELDS, KINDS, type VisitBatch } from './visit-columns.js';

/**
 * A batch's counted visits for the visit log, as indexes into the batch plus the label codes the aggregator
 * parsed once per distinct header: a logged visit costs no parsing and no object of its own.
 */
export interface VisitLog {
  batch: VisitBatch;
  /** Batch indexes of the visits counted (bots left out), in arrival order; the first `length` are set. */
  kept: Uint32Array;
  length: number;
  labels: BatchLabels;
  /** By string index of the batch: the codes of each distinct user agent, ip (country) and referer. */
  agents: readonly AgentCodes[];
  countries: readonly number[];
  referrers: readonly ReferrerCodes[];
}

export function visitLog(batch: VisitBatch, labels: BatchLabels, agents: AgentCodes[], countries: number[], referrers: ReferrerCodes[]): VisitLog {
  return { batch, kept: new Uint32Array(batch.kinds.length), length: 0, labels, agents, countries, referrers };
}

/** Receives one logged visit as arguments (no row object): `at` in seconds since 1970. */
export type VisitSink = (kind: TargetKind, id: number, at: number, country: string, referrer: string,
  browser: string, os: string, device: string, rule: string) => void;

/**
 * Hands each logged visit to `sink` by target (kind, id), each target's in arrival order, except those of
 * targets `skip` names (deleted since). In target order the inserts walk the (target_kind, target_id, id)
 * index from one end to the other instead of a random page per visit (docs/performance.md#visit-log);
 * a batch spans about a second, so ids still grow with time from batch to batch.
 */
export function eachVisit(log: VisitLog, skip: (kind: TargetKind, id: number) => boolean, sink: VisitSink): void {
  const { batch: { kinds, ids, seconds, fields, strings }, labels: { byCode } } = log;
  const kept = log.kept.subarray(0, log.length).sort((a, b) => kinds[a]! - kinds[b]! || ids[a]! - ids[b]! || a - b);
  for (let k = 0; k < kept.length; k++) {
    const i = kept[k]!;
    const kind = KINDS[kinds[i]!]!;
    const id = ids[i]!;
    if (skip(kind, id)) continue;
    const agent = log.agents[fields[i * FIELDS + 1]!]!;
    const country = byCode[log.countries[fields[i * FIELDS]!]!]!.label;
    const referrer = byCode[log.referrers[fields[i * FIELDS + 2]!]!.host]!.label;
    sink(kind, id, seconds[i]!, country, referrer, byCode[agent.browser]!.label, byCode[agent.os]!.label, agent.device, strings[fields[i * FIELDS + 3]!]!);
  }
}

/** The logged visits as rows, for the multi-row inserts of the Kysely writer. */
export function visitRows(log: VisitLog | null, skip: (kind: TargetKind, id: number) => boolean): Insertable<VisitsTable>[] {
  const rows: Insertable<VisitsTable>[] = [];
  if (log) {
    eachVisit(log, skip, (target_kind, target_id, at, country, referrer, browser, os, device, rule) =>
      rows.push({ target_kind, target_id, at, country, referrer, browser, os, device, rule }));
  }
  return rows;
}

/** Rows deleted per statement: each delete is a short transaction of its own, so the click writer never waits long. */
const PRUNE_BATCH = 5_000;
const PAUSE_MS = 20;

/** The first second kept when `days` days of visits are kept. */
export const visitCutoff = (days: number, now = Date.now()) => Math.floor(now / 1000) - days * 86_400;

/**
 * Deletes visits served before `beforeSecond`, oldest first, `batch` rows at a time by id range: ids grow
 * with time, so each pass reads the first `batch` ids and deletes up to the last one still too old (never a
 * newer visit, even one of another node a little out of order). Returns the number of rows deleted.
 */
export async function pruneVisits(db: Db, beforeSecond: number, options: { batch?: number; shouldStop?: () => boolean } = {}): Promise<number> {
  const { batch = PRUNE_BATCH, shouldStop = () => false } = options;
  let deleted = 0;
  while (!shouldStop()) {
    const rows = await db.selectFrom('visits').select(['id', 'at']).orderBy('id').limit(batch).execute();
    let last = -1;
    for (const row of rows) {
      if (Number(row.at) >= beforeSecond) break;
      last = Number(row.id);
    }
    if (last < 0) break;
    const result = await db.deleteFrom('visits').where('id', '<=', last).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (rows.length < batch || last !== Number(rows[rows.length - 1]!.id)) break;
    await sleep(PAUSE_MS);
  }
  return deleted;
}

/** Prunes the visit log a minute after start and then hourly (nothing when `days` is 0: nothing is logged). */
export function scheduleVisitPrune(db: Db, days: number, log: Logger): () => Promise<void> {
  if (days === 0) return async () => {};
  return scheduleHourly((shouldStop) => pruneVisits(db, visitCutoff(days), { shouldStop }), log, 'pruning the visit log');
}
