import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage } from '../../lib/pagination.js';
import { formatTimestamp } from '../../lib/time.js';
import { dayRange } from './series-buckets.js';
import { owns } from './series-repo.js';
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

const entry = (v: repo.VisitRecord): VisitEntry => ({
  date: formatTimestamp(new Date(v.at * 1000)), country: v.country, referrer: v.referrer, browser: v.browser, os: v.os, device: v.device, rule: v.rule,
});

async function own(ctx: AppContext, userId: number, kind: TargetKind, id: number): Promise<void> {
  if (!(await owns(ctx.db, kind, userId, id))) throw fail('not_found', NAMES[kind]);
}

/** A page of the visit log of one of the account's links or QR codes, newest first. */
export async function listVisits(ctx: AppContext, userId: number, kind: TargetKind, id: number, query: { limit?: number; page?: number }) {
  const page = toPage(query);
  await own(ctx, userId, kind, id);
  const [total, rows] = await Promise.all([repo.countVisits(ctx.db, kind, id), repo.visitPage(ctx.db, kind, id, page.limit, page.offset)]);
  return listData(page, total, rows.map(entry));
}

/** The exports' columns, in order: `type` and `id` name the link or QR code. */
export const EXPORT_COLUMNS = ['date', 'type', 'id', 'country', 'referrer', 'browser', 'os', 'device', 'rule'] as const;

/** Rows read per query while exporting: the export holds one page at a time, whatever the log's size. */
const PAGE = 1_000;
/** Ids of the log's primary key read per step of an account export. */
const WINDOW = 5_000;

const csvRow = (v: repo.VisitRecord) => [formatTimestamp(new Date(v.at * 1000)), v.target_kind, v.target_id, v.country, v.referrer, v.browser, v.os, v.device, v.rule];

/** CSV with a header row, written as the pages arrive: the reader's pace sets how fast pages are read. */
function csvOf(pages: AsyncGenerator<repo.VisitRecord[]>): Readable {
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
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const page = await repo.visitsBefore(ctx.db, kind, id, before, PAGE);
      if (page.length > 0) yield page;
      if (page.length < PAGE) return;
      before = page[page.length - 1]!.id;
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
    const { first, last } = await repo.visitIdSpan(ctx.db);
    for (let to = last + 1; to > first; to -= WINDOW) {
      const page = await repo.accountVisitsIn(ctx.db, userId, Math.max(first, to - WINDOW), to, fromAt, toAt);
      if (page.length > 0) yield page;
    }
  }
  return csvOf(pages());
}
