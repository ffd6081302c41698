import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import { sql } from 'kysely';
import type { TargetKind } from '../db/types.js';
import type { AgentCodes, BatchLabels, ReferrerCodes } from './derive.js';
import { scheduleHourly } from './retention.js';
import { FIELDS, type VisitBatch } from './visit-columns.js';

/**
 * What the visit log needs of a batch to pack its targets' counted visits (TargetBatch.logged): the label
 * codes the aggregator parsed once per distinct header, so a logged visit costs no parsing.
 */
export interface VisitLog {
  batch: VisitBatch;
  labels: BatchLabels;
  /** By string index of the batch: the codes of each distinct user agent, ip (country) and referer. */
  agents: readonly AgentCodes[];
  countries: readonly number[];
  referrers: readonly ReferrerCodes[];
}

export function visitLog(batch: VisitBatch, labels: BatchLabels, agents: AgentCodes[], countries: number[], referrers: ReferrerCodes[]): VisitLog {
  return { batch, labels, agents, countries, referrers };
}

/** A target's logged visits of one batch, as its visit_packs row stores them (src/db/migrations/0007). */
export interface VisitPack {
  /** The second its first visit was served. */
  at: number;
  n: number;
  /** JSON array of the pack's distinct labels. */
  labels: string;
  /**
   * Per visit in arrival order, little-endian: first n Uint32 seconds (offsets from `at`), then n × 6 indexes
   * into `labels` (country, referrer, browser, OS, device kind, rule), each 1, 2 or 4 bytes as the number of
   * labels needs. A link's visits of a batch share few labels, and numbers cost no formatting.
   */
  codes: Buffer;
}

/** Label indexes per visit. */
const SLOTS = 6;
const DEVICES = ['desktop', 'mobile', 'tablet', 'other'];

/** The typed array that holds label indexes of a pack with `labels` labels. */
const widthOf = (labels: number) => (labels <= 0x100 ? Uint8Array : labels <= 0x10000 ? Uint16Array : Uint32Array);

/** Packs a target's visits (batch indexes, TargetBatch.logged); null when there are none or the log is off. */
export type Packer = (visits: readonly number[]) => VisitPack | null;

/**
 * Packs the batch's targets one after another. Labels are keyed by number (the batch's label codes, then
 * device kinds, then the batch's strings for rules) and numbered per pack through a stamp array; the packs'
 * bytes are views of one buffer per batch (docs/performance.md#visit-packs).
 */
export function packer(log: VisitLog | null): Packer {
  if (!log) return () => null;
  const {
    batch: { seconds, fields, strings },
    labels: { byCode },
  } = log;
  const deviceBase = byCode.length;
  const ruleBase = deviceBase + DEVICES.length;
  const stamp = new Int32Array(ruleBase + strings.length).fill(-1);
  const local = new Uint32Array(stamp.length);
  // Each label JSON-quoted once per batch: a pack's labels are joined, not stringified.
  const quoted: string[] = [];
  const quote = (key: number) =>
    (quoted[key] ??= JSON.stringify(key < deviceBase ? byCode[key]!.label : key < ruleBase ? DEVICES[key - deviceBase]! : strings[key - ruleBase]!));
  // A batch of at most 256 label keys writes indexes as bytes at once; else as Uint32, narrowed per pack.
  const Indexes = stamp.length <= 0x100 ? Uint8Array : Uint32Array;
  // Room for every visit at 4 bytes per index; each pack starts 4-aligned where the previous one ended.
  const buffer = new ArrayBuffer(seconds.length * 4 * (1 + SLOTS));
  let used = 0;
  let packs = 0;
  let labels: string[] = [];
  // The pack's index of a label key, numbering it on its first use in the pack.
  const indexOf = (key: number) => {
    if (stamp[key] !== packs) {
      stamp[key] = packs;
      local[key] = labels.push(quote(key)) - 1;
    }
    return local[key]!;
  };
  return (visits) => {
    const n = visits.length;
    if (n === 0) return null;
    packs += 1;
    labels = [];
    let at = seconds[visits[0]!]!;
    // Arrival order is not quite time order (a request whose link was read from the database is recorded later).
    for (const i of visits) at = Math.min(at, seconds[i]!);
    const offsets = new Uint32Array(buffer, used, n);
    const indexes = new Indexes(buffer, used + n * 4, n * SLOTS);
    for (let v = 0; v < n; v++) {
      const i = visits[v]!;
      const field = i * FIELDS;
      const agent = log.agents[fields[field + 1]!]!;
      const slot = v * SLOTS;
      offsets[v] = seconds[i]! - at;
      indexes[slot] = indexOf(log.countries[fields[field]!]!);
      indexes[slot + 1] = indexOf(log.referrers[fields[field + 2]!]!.host);
      indexes[slot + 2] = indexOf(agent.browser);
      indexes[slot + 3] = indexOf(agent.os);
      indexes[slot + 4] = indexOf(deviceBase + DEVICES.indexOf(agent.device));
      indexes[slot + 5] = indexOf(ruleBase + fields[field + 3]!);
    }
    const Width = widthOf(labels.length);
    if (Width !== Indexes) new Width(buffer, used + n * 4, n * SLOTS).set(indexes); // narrowing in place, front to back
    const size = n * 4 + n * SLOTS * Width.BYTES_PER_ELEMENT;
    const codes = Buffer.from(buffer, used, size);
    used += Math.ceil(size / 4) * 4;
    return { at, n, labels: `[${labels.join(',')}]`, codes };
  };
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

/** A pack's visits, newest first. */
export function unpack(row: {
  target_kind: TargetKind;
  target_id: number | string;
  at: number | string;
  n: number | string;
  labels: string;
  codes: Uint8Array;
}): LoggedVisit[] {
  const { target_kind } = row;
  const [target_id, at, n] = [Number(row.target_id), Number(row.at), Number(row.n)];
  const labels = JSON.parse(row.labels) as string[];
  const bytes = new Uint8Array(row.codes); // a copy: aligned for the views whatever the driver's buffer
  const offsets = new Uint32Array(bytes.buffer, 0, n);
  const indexes = new (widthOf(labels.length))(bytes.buffer, n * 4, n * SLOTS);
  const visits: LoggedVisit[] = [];
  for (let v = n - 1; v >= 0; v--) {
    const label = (slot: number) => labels[indexes[v * SLOTS + slot]!]!;
    visits.push({
      target_kind,
      target_id,
      at: at + offsets[v]!,
      country: label(0),
      referrer: label(1),
      browser: label(2),
      os: label(3),
      device: label(4),
      rule: label(5),
    });
  }
  return visits;
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
  const newest = await db
    .selectFrom('visit_packs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  // The newest pack always stays, so SQLite never hands its id out again (to another target's pack).
  const rows = await db
    .selectFrom('visit_packs')
    .select(['id', 'at', 'n'])
    .where('id', '<', Number(newest?.id ?? 0))
    .orderBy('id')
    .limit(batch)
    .execute();
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
