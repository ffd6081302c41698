import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import { sql } from 'kysely';
import type { TargetKind } from '../db/types.js';
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

/** A target's logged visits of one batch, as its visit_packs row stores them (src/db/migrations/0007). */
export interface VisitPack {
  /** The second its first visit was served. */
  at: number;
  n: number;
  /** JSON: [second offset from `at`, country, referrer, browser, os, device, rule] per visit, in arrival order. */
  visits: string;
}

/** Answers a target's pack of the batch, or null when none of its visits was logged; asked in target order. */
export type PackCursor = (kind: TargetKind, id: number) => VisitPack | null;

/**
 * Packs the batch's logged visits target by target. The writer asks for its targets in their order (kind
 * as KINDS lists them, then id), so one pass over the visits sorted the same way serves every target.
 */
export function packCursor(log: VisitLog | null): PackCursor {
  if (!log || log.length === 0) return () => null;
  const { kinds, ids } = log.batch;
  const kept = log.kept.subarray(0, log.length).sort((a, b) => kinds[a]! - kinds[b]! || ids[a]! - ids[b]! || a - b);
  let k = 0;
  return (kind, id) => {
    const want = KINDS.indexOf(kind);
    const before = (i: number) => kinds[i]! < want || (kinds[i]! === want && ids[i]! < id);
    while (k < kept.length && before(kept[k]!)) k++;
    const start = k;
    while (k < kept.length && kinds[kept[k]!] === want && ids[kept[k]!] === id) k++;
    return k === start ? null : pack(log, kept.subarray(start, k));
  };
}

function pack(log: VisitLog, visits: Uint32Array): VisitPack {
  const { batch: { seconds, fields, strings }, labels: { byCode } } = log;
  const at = seconds[visits[0]!]!;
  const rows: unknown[] = [];
  for (const i of visits) {
    const agent = log.agents[fields[i * FIELDS + 1]!]!;
    rows.push([seconds[i]! - at, byCode[log.countries[fields[i * FIELDS]!]!]!.label, byCode[log.referrers[fields[i * FIELDS + 2]!]!.host]!.label,
      byCode[agent.browser]!.label, byCode[agent.os]!.label, agent.device, strings[fields[i * FIELDS + 3]!]!]);
  }
  return { at, n: visits.length, visits: JSON.stringify(rows) };
}

/** A logged visit as read back from its pack; `at` in seconds since 1970. */
export interface LoggedVisit {
  target_kind: TargetKind;
  target_id: number;
  at: number;
  country: string;
  referrer: string;
  browser: string;
  os: string;
  device: string;
  rule: string;
}

type PackedVisit = [offset: number, country: string, referrer: string, browser: string, os: string, device: string, rule: string];

/** A pack's visits, newest first. */
export function unpack(row: { target_kind: TargetKind; target_id: number | string; at: number | string; visits: string }): LoggedVisit[] {
  const target_id = Number(row.target_id);
  const at = Number(row.at);
  return (JSON.parse(row.visits) as PackedVisit[]).reverse().map(([offset, country, referrer, browser, os, device, rule]) =>
    ({ target_kind: row.target_kind, target_id, at: at + offset, country, referrer, browser, os, device, rule }));
}

/** Packs deleted per step: each step is a short transaction of its own, so the click writer never waits long. */
const PRUNE_BATCH = 2_000;
const PAUSE_MS = 20;

/** The first second kept when `days` days of visits are kept. */
export const visitCutoff = (days: number, now = Date.now()) => Math.floor(now / 1000) - days * 86_400;

/**
 * Deletes visits served before `beforeSecond`, oldest packs first, `batch` packs at a time by id range: ids
 * grow with time, so each step reads the first `batch` ids and deletes up to the last one still too old
 * (never a newer pack, even one of another node a little out of order). Returns the number of visits deleted.
 */
export async function pruneVisits(db: Db, beforeSecond: number, options: { batch?: number; shouldStop?: () => boolean } = {}): Promise<number> {
  const { batch = PRUNE_BATCH, shouldStop = () => false } = options;
  let deleted = 0;
  while (!shouldStop()) {
    const step = await db.transaction().execute((trx) => pruneStep(trx, beforeSecond, batch));
    deleted += step.visits;
    if (!step.more) break;
    await sleep(PAUSE_MS);
  }
  return deleted;
}

async function pruneStep(db: Db, beforeSecond: number, batch: number): Promise<{ visits: number; more: boolean }> {
  const newest = await db.selectFrom('visit_packs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  // The newest pack always stays, so SQLite never hands its id out again (to another target's pack).
  const rows = await db.selectFrom('visit_packs').select(['id', 'at', 'n']).where('id', '<', Number(newest?.id ?? 0))
    .orderBy('id').limit(batch).execute();
  let last = -1;
  let visits = 0;
  for (const row of rows) {
    if (Number(row.at) >= beforeSecond) break;
    last = Number(row.id);
    visits += Number(row.n);
  }
  if (last < 0) return { visits: 0, more: false };
  await sql`update click_summaries set visit_count = visit_count - g.n from (select target_kind, target_id, sum(n) as n
    from visit_packs where id <= ${last} group by target_kind, target_id) as g
    where click_summaries.target_kind = g.target_kind and click_summaries.target_id = g.target_id`.execute(db);
  await db.deleteFrom('visit_packs').where('id', '<=', last).execute();
  return { visits, more: rows.length === batch && last === Number(rows[rows.length - 1]!.id) };
}

/** Prunes the visit log a minute after start and then hourly (nothing when `days` is 0: nothing is logged). */
export function scheduleVisitPrune(db: Db, days: number, log: Logger): () => Promise<void> {
  if (days === 0) return async () => {};
  return scheduleHourly((shouldStop) => pruneVisits(db, visitCutoff(days), { shouldStop }), log, 'pruning the visit log');
}
