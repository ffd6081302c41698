import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage } from '../../lib/pagination.js';
import { formatTimestamp } from '../../lib/time.js';
import { dayRange } from './series-buckets.js';
import { owns } from './series-repo.js';
import { unpack, type LoggedVisit } from '../../clicks/visit-log.js';
import * as repo from './visits-repo.js';

/** A visit as the API and the exports show it: labels only, no IP address or user agent. */
export interface VisitEntry {
  date: string;
  country: string;
  referrer: string;
  browser: string;
  os: string;
  device: string;
  rule: string;
}

const NAMES = { link: 'Link', qr: 'QR code' } as const;

const entry = (v: LoggedVisit): VisitEntry => ({
  date: formatTimestamp(new Date(v.at * 1000)), country: v.country, referrer: v.referrer, browser: v.browser, os: v.os, device: v.device, rule: v.rule,
});

async function own(ctx: AppContext, userId: number, kind: TargetKind, id: number): Promise<void> {
  if (!(await owns(ctx.db, kind, userId, id))) throw fail('not_found', NAMES[kind]);
}

/** A page of the visit log of one of the account's links or QR codes, newest first. */
export async function listVisits(ctx: AppContext, userId: number, kind: TargetKind, id: number, query: { limit?: number; page?: number }) {
  const page = toPage(query);
  await own(ctx, userId, kind, id);
  const end = page.offset + page.limit;
  const [total, packs] = await Promise.all([repo.countVisits(ctx.db, kind, id),
    repo.packChain(ctx.db, kind, id, { visits: end, packs: UNBOUNDED, skip: page.offset })]);
  // The first pack answered may start before the page: its visits before `offset` are left out.
  const first = packs[0] ? packs[0].seen - packs[0].n : 0;
  const visits = packs.flatMap(unpack).slice(page.offset - first, end - first);
  return listData(page, total, visits.map(entry));
}

/** The exports' columns, in order: `type` and `id` name the link or QR code. */
export const EXPORT_COLUMNS = ['date', 'type', 'id', 'country', 'referrer', 'browser', 'os', 'device', 'rule'] as const;

/** No limit on a walk's visits or packs (the largest integer of a PostgreSQL `integer`, which the walk compares with). */
const UNBOUNDED = 2_147_483_647;
/** Packs read per query while exporting: the export holds one page of packs at a time, whatever the log's size. */
const PAGE = 200;
/** Pack ids of the log's primary key read per step of an account export. */
const WINDOW = 1_000;

const csvRow = (v: LoggedVisit) => [formatTimestamp(new Date(v.at * 1000)), v.target_kind, v.target_id, v.country, v.referrer, v.browser, v.os, v.device, v.rule];

/** CSV with a header row, written as the pages arrive: the reader's pace sets how fast pages are read. */
function csvOf(pages: AsyncGenerator<LoggedVisit[]>): Readable {
  async function* rows() {
    for await (const page of pages) for (const visit of page) yield csvRow(visit);
  }
  const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS] });
  // A failed read ends the response early; a reader that leaves stops the reads.
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}

/** The visit log of one of the account's links or QR codes as CSV, newest first. */
export async function exportTargetVisits(ctx: AppContext, userId: number, kind: TargetKind, id: number): Promise<Readable> {
  await own(ctx, userId, kind, id);
  async function* pages() {
    let from: number | undefined;
    for (;;) {
      const packs = await repo.packChain(ctx.db, kind, id, { from, visits: UNBOUNDED, packs: PAGE });
      if (packs.length > 0) yield packs.flatMap(unpack);
      const last = packs[packs.length - 1];
      if (packs.length < PAGE || !last?.prev) return;
      from = last.prev;
    }
  }
  return csvOf(pages());
}

/** The visit log of all the account's links and QR codes as CSV, newest first, optionally between two days (UTC, included). */
export async function exportAccountVisits(ctx: AppContext, userId: number, query: { from?: string; to?: string }): Promise<Readable> {
  const days = query.from || query.to ? dayRange(query) : null;
  const fromAt = days ? days.from * 86_400 : 0;
  const toAt = days ? (days.to + 1) * 86_400 : Number.MAX_SAFE_INTEGER;
  async function* pages() {
    const inRange = (v: LoggedVisit) => v.at >= fromAt && v.at < toAt;
    for (let to = (await repo.newestPackId(ctx.db)) + 1; to > 0; to -= WINDOW) {
      const packs = await repo.accountPacksIn(ctx.db, userId, Math.max(0, to - WINDOW), to, fromAt, toAt);
      if (packs.length > 0) yield packs.flatMap(unpack).filter(inRange);
    }
  }
  return csvOf(pages());
}
