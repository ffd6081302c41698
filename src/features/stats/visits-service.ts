import { pipeline, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Static } from 'typebox';
import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { csvWriter } from '../../lib/csv-cells.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage } from '../../lib/pagination.js';
import { shortUrl } from '../../lib/short-url.js';
import { formatTimestamp } from '../../lib/time.js';
import { dayRange } from './series-buckets.js';
import { owns } from './targets.js';
import { statsTargets } from './ports.js';
import { unpack, type LoggedVisit } from '../../clicks/visit-log.js';
import { LATEST_DEFAULT, type VisitEntry as VisitEntrySchema } from './visits-schema.js';
import * as repo from '../../clicks/visits-repo.js';

/** A visit as the API and the exports show it: labels only, no IP address or user agent. */
export type VisitEntry = Static<typeof VisitEntrySchema>;

const NAMES = { link: 'Link', qr: 'QR code' } as const;

const entry = (v: LoggedVisit): VisitEntry => ({
  date: formatTimestamp(new Date(v.at * 1000)),
  country: v.country,
  referrer: v.referrer,
  browser: v.browser,
  os: v.os,
  device: v.device,
  rule: v.rule,
});

async function own(ctx: AppContext, userId: number, kind: TargetKind, id: number): Promise<void> {
  if (!(await owns(ctx.db, kind, userId, id))) throw fail('not_found', NAMES[kind]);
}

/** Deepest a numbered page of a visit log may start (0-based visit): deeper, `before` walks on at one page's cost. */
export const VISIT_PAGE_DEPTH = 10_000;

/** Where a page of a target's log starts: `skip` visits into the walk from pack `from` (its newest when absent). */
interface Start {
  from?: number;
  skip: number;
}

/** A `before` cursor: the pack the next page starts in and how many of its visits (newest first) come before. */
const CURSOR = /^(\d{1,15})-(\d{1,9})$/;

function cursorStart(before: string): Start {
  const match = CURSOR.exec(before);
  if (!match) throw fail('invalid_field', 'before must be a cursor a page of visits answered');
  return { from: Number(match[1]), skip: Number(match[2]) };
}

/** The cursor of the visit at position `end` of the walk (the first one the page left out), or null at the log's end. */
function cursorAt(packs: repo.PackRecord[], end: number): string | null {
  const last = packs[packs.length - 1];
  if (!last || last.seen < end) return null;
  if (last.seen === end) return last.prev === null ? null : `${last.prev}-0`;
  return `${last.id}-${end - (last.seen - last.n)}`;
}

/** One page's visits from `start`, and the cursor after them; the walk reads at most `packs` packs. */
async function walkPage(ctx: AppContext, kind: TargetKind, id: number, start: Start, limit: number, packs: number) {
  const end = start.skip + limit;
  const read = await repo.packChain(ctx.db, kind, id, { from: start.from, visits: end, packs, skip: start.skip });
  // The first pack answered may start before the page: its visits before `skip` are left out.
  const first = read[0] ? read[0].seen - read[0].n : 0;
  return { visits: read.flatMap(unpack).slice(start.skip - first, end - first), before: cursorAt(read, end) };
}

/**
 * A page of the visit log of one of the account's links or QR codes, newest first: by number, at most
 * VISIT_PAGE_DEPTH visits deep, or from a `before` cursor, whose walk reads at most a page's packs and one more.
 */
export async function listVisits(
  ctx: AppContext,
  userId: number,
  kind: TargetKind,
  id: number,
  query: { limit?: number; page?: number; before?: string },
) {
  if (query.before !== undefined && query.page !== undefined) throw fail('invalid_field', 'Send page or before, not both');
  const page = toPage(query);
  await own(ctx, userId, kind, id);
  const total = await repo.countVisits(ctx.db, kind, id);
  if (query.before !== undefined) {
    const { visits, before } = await walkPage(ctx, kind, id, cursorStart(query.before), page.limit, page.limit + 1);
    return { ...listData(page, total, visits.map(entry)), currentpage: 0, nextpage: 0, before };
  }
  // A page past the log's end needs no walk (page numbers go up to 2^31 - 1).
  if (page.offset >= total) return { ...listData(page, total, []), before: null };
  if (page.offset >= VISIT_PAGE_DEPTH) throw fail('visits_page_too_deep', VISIT_PAGE_DEPTH.toLocaleString('en'));
  const { visits, before } = await walkPage(ctx, kind, id, { skip: page.offset }, page.limit, page.offset + page.limit);
  return { ...listData(page, total, visits.map(entry)), before };
}

/** The exports' columns, in order: `type` and `id` name the link or QR code. */
export const EXPORT_COLUMNS = ['date', 'type', 'id', 'country', 'referrer', 'browser', 'os', 'device', 'rule'] as const;

/** No limit on a walk's visits or packs (the largest integer of a PostgreSQL `integer`, which the walk compares with). */
const UNBOUNDED = 2_147_483_647;
/** Packs read per query while exporting: the export holds one page of packs at a time, whatever the log's size. */
const PAGE = 200;

const csvRow = (v: LoggedVisit) => [
  formatTimestamp(new Date(v.at * 1000)),
  v.target_kind,
  v.target_id,
  v.country,
  v.referrer,
  v.browser,
  v.os,
  v.device,
  v.rule,
];

/** CSV with a header row, written as the pages arrive: the reader's pace sets how fast pages are read. */
function csvOf(pages: AsyncGenerator<LoggedVisit[]>): Readable {
  async function* rows() {
    for await (const page of pages) for (const visit of page) yield csvRow(visit);
  }
  const csv = csvWriter(EXPORT_COLUMNS);
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
      await nextTurn();
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
    for await (const packs of accountPages(ctx, userId, fromAt, toAt)) if (packs.length > 0) yield packs.flatMap(unpack).filter(inRange);
  }
  return csvOf(pages());
}

/**
 * The account's packs that may hold visits served in seconds [fromAt, toAt), PAGE at a time, newest first, read
 * through the log's index by owner: the walk costs the account's own packs in the range, never the whole log,
 * and gives the loop a turn between pages (docs/decisions/0014-visit-packs-by-owner.md).
 */
async function* accountPages(ctx: AppContext, userId: number, fromAt = 0, toAt = Number.MAX_SAFE_INTEGER) {
  let below: repo.OwnerCursor | undefined;
  for (;;) {
    const packs = await repo.ownerPacks(ctx.db, userId, { fromAt, toAt, below }, PAGE);
    if (packs.length > 0) yield packs;
    const last = packs[packs.length - 1];
    if (!last || packs.length < PAGE) return;
    below = { at: last.at, id: last.id };
    await nextTurn();
  }
}

/** The account's latest visits across its links and QR codes, newest first, each naming what was visited. */
export async function latestVisits(ctx: AppContext, userId: number, query: { limit?: number }) {
  const limit = query.limit ?? LATEST_DEFAULT;
  const found: LoggedVisit[] = [];
  for await (const packs of accountPages(ctx, userId)) {
    found.push(...packs.flatMap(unpack));
    if (found.length >= limit) break;
  }
  // One batch's packs overlap in time: sorting (stable) puts each visit in its place.
  const visits = found.sort((a, b) => b.at - a.at).slice(0, limit);
  const ids = (kind: TargetKind) => [...new Set(visits.filter((v) => v.target_kind === kind).map((v) => v.target_id))];
  const names = await targetNames(ctx, userId, ids('link'), ids('qr'));
  return visits.flatMap((v) => {
    const target = v.target_kind === 'link' ? linkName(ctx, names.links.get(v.target_id)) : qrName(names.qrs.get(v.target_id));
    // A target deleted since its packs were read is left out, as its visits are with it.
    return target ? [{ ...entry(v), type: v.target_kind, id: v.target_id, ...target }] : [];
  });
}

function linkName(ctx: AppContext, link: LinkName | undefined) {
  if (!link) return null;
  const shorturl = shortUrl(ctx.config, link.host && link.scheme ? { host: link.host, scheme: link.scheme } : null, link.alias);
  return { name: link.title || shorturl, shorturl };
}

const qrName = (name: string | undefined) => (name === undefined ? null : { name });

/** What names a link in a visit list: its alias, shown title and branded domain (null host on the default domain). */
interface LinkName {
  id: number;
  alias: string;
  title: string;
  host: string | null;
  scheme: string | null;
}

/**
 * The account's links and QR codes among `linkIds` and `qrIds`, with what names them; deleted ones and
 * other accounts' are absent. A link's shown title is its own, else its meta title, as its detail shows.
 */
async function targetNames(ctx: AppContext, userId: number, linkIds: number[], qrIds: number[]) {
  const targets = statsTargets();
  const [links, qrs] = await Promise.all([targets.linkNames(ctx.db, linkIds, userId), targets.qrNames(ctx.db, qrIds, userId)]);
  return {
    links: new Map(links.map((l): [number, LinkName] => [Number(l.id), { ...l, id: Number(l.id), title: l.title || l.meta_title }])),
    qrs: new Map(qrs.map((q) => [Number(q.id), q.name])),
  };
}
