import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage } from '../../lib/pagination.js';
import { unpack } from '../../clicks/visit-log.js';
import * as repo from '../../clicks/visits-repo.js';
import { entry, own } from './visits-service.js';
import { VISIT_PAGE_DEPTH } from './visits-depth.js';

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
