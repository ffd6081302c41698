import { pipeline, Readable } from 'node:stream';
import type { AppContext } from '../../../context.js';
import { csvWriter } from '../../../lib/csv-cells.js';
import { linkPixelIds } from '../../pixels/service.js';
import { tagsOfLinks } from '../../tags/access.js';
import { healthOf } from '../../health/access.js';
import { shownHealth } from '../view.js';
import { exportPage } from '../repo.js';
import { EXPORT_COLUMNS, exportRecord } from './csv-format.js';

/** Links read per query: memory stays at about one page, however many links the account has. */
export const EXPORT_PAGE = 1000;

/** The account's links, oldest first, a keyset page at a time and only as fast as the reader takes them. */
async function* linkRecords(ctx: AppContext, userId: number) {
  for (let after = 0; ;) {
    const page = await exportPage(ctx.db, userId, after, EXPORT_PAGE);
    if (page.length === 0) return;
    const ids = page.map((link) => link.id);
    const [pixels, tags, health] = await Promise.all([linkPixelIds(ctx.db, ids), tagsOfLinks(ctx.db, ids), healthOf(ctx.db, 'link', ids)]);
    for (const link of page)
      yield exportRecord(ctx.config, link, pixels.get(link.id), tags.get(link.id), shownHealth(link, health.get(link.id)).status);
    if (page.length < EXPORT_PAGE) return;
    after = page[page.length - 1]!.id;
  }
}

/** All links of the account as CSV with a header row (the columns of EXPORT_COLUMNS), as a stream. */
export function exportLinks(ctx: AppContext, userId: number): Readable {
  const csv = csvWriter(EXPORT_COLUMNS);
  // pipeline, not pipe: a reader that hangs up ends the reading of pages too.
  return pipeline(Readable.from(linkRecords(ctx, userId)), csv, (error) => {
    if (error && (error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') ctx.log.error({ err: error }, 'link export failed');
  });
}
