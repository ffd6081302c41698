import { pipeline, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Static } from 'typebox';
import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { csvWriter } from '../../lib/csv-cells.js';
import { fail } from '../../lib/errors.js';
import { shortUrl } from '../../lib/short-url.js';
import { formatTimestamp } from '../../lib/time.js';
import { dayRange } from './series-buckets.js';
import { owns } from './targets.js';
import { statsTargets } from './ports.js';
import { unpack, type LoggedVisit } from '../../clicks/visit-log.js';
import { LATEST_DEFAULT, LATEST_MAX, type VisitEntry as VisitEntrySchema } from './visits-schema.js';
import * as repo from '../../clicks/visits-repo.js';

/** A visit as the API and the exports show it: labels only, no IP address or user agent. */
export type VisitEntry = Static<typeof VisitEntrySchema>;

const NAMES = { link: 'Link', qr: 'QR code' } as const;

/** A logged visit as the API shows it. */
export const entry = (v: LoggedVisit): VisitEntry => ({
  date: formatTimestamp(new Date(v.at * 1000)),
  country: v.country,
  referrer: v.referrer,
  browser: v.browser,
  os: v.os,
  device: v.device,
  rule: v.rule,
});

/** Throws not_found unless the account owns the link or QR code. */
export async function own(ctx: AppContext, userId: number, kind: TargetKind, id: number): Promise<void> {
  if (!(await owns(ctx.db, kind, userId, id))) throw fail('not_found', NAMES[kind]);
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

/** Rows written between two turns of the event loop: a fast reader never holds the loop for long (about 5 ms). */
const ROWS_A_TURN = 2_000;

/**
 * CSV with a header row, written as the pages arrive: the reader's pace sets how fast pages are read. Pages come
 * a pack at a time, so one synchronous step unpacks at most one pack (one target's visits of one click batch).
 */
function csvOf(pages: AsyncGenerator<LoggedVisit[]>): Readable {
  async function* rows() {
    let written = 0;
    for await (const page of pages) {
      for (const visit of page) {
        yield csvRow(visit);
        if (++written % ROWS_A_TURN === 0) await nextTurn();
      }
    }
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
      for (const pack of packs) yield unpack(pack);
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
    for await (const packs of accountPages(ctx, userId, fromAt, toAt)) for (const pack of packs) yield unpack(pack).filter(inRange);
  }
  return csvOf(pages());
}

/**
 * The account's packs that may hold visits served in seconds [fromAt, toAt), `size` at a time, newest first, read
 * through the log's index by owner: the walk costs the account's own packs in the range, never the whole log,
 * and gives the loop a turn between pages (docs/decisions/0014-visit-packs-by-owner.md).
 */
async function* accountPages(ctx: AppContext, userId: number, fromAt = 0, toAt = Number.MAX_SAFE_INTEGER, size = PAGE) {
  let below: repo.OwnerCursor | undefined;
  for (;;) {
    const packs = await repo.ownerPacks(ctx.db, userId, { fromAt, toAt, below }, size);
    if (packs.length > 0) yield packs;
    const last = packs[packs.length - 1];
    if (!last || packs.length < size) return;
    below = { at: last.at, id: last.id };
    await nextTurn();
  }
}

/** The account's latest visits across its links and QR codes, newest first, each naming what was visited. */
export async function latestVisits(ctx: AppContext, userId: number, query: { limit?: number }) {
  const limit = query.limit ?? LATEST_DEFAULT;
  const found: LoggedVisit[] = [];
  // A pack holds a visit at least, so LATEST_MAX packs are enough, and leave room for one batch's packs overlapping in time.
  for await (const packs of accountPages(ctx, userId, 0, Number.MAX_SAFE_INTEGER, LATEST_MAX)) {
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
