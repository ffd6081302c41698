import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connect.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import type { Pacer } from '../../../infra/pacer.js';
import { AppError, fail } from '../../../lib/errors.js';
import { addToChannel } from '../../channels/access.js';
import { addLinkPixels } from '../../pixels/service.js';
import { addLinkTags } from '../../tags/access.js';
import { queueWebhookEvents, type Hearing } from '../../webhooks/access.js';
import { shortUrl } from '../../../lib/short-url.js';
import { insertLink, insertLinkRows } from '../repo.js';
import { type Draft, drawAlias, type Outcome, RANDOM_ATTEMPTS } from './draft.js';

/** The pipeline's write stage (write/pipeline.ts): the allocated rows with their pixels and channel, in as few statements as it can. */
/** Pixels, tags and channel of links just inserted, in the same transaction. */
async function attach(trx: Db, written: Array<{ d: Draft; id: number }>): Promise<void> {
  await addLinkPixels(
    trx,
    written.flatMap(({ d, id }) => (d.refs.pixels ?? []).map((pixel_id) => ({ link_id: id, pixel_id }))),
  );
  await addLinkTags(
    trx,
    written.map(({ d, id }) => ({ linkId: id, userId: d.row.user_id, tags: d.tags })),
  );
  for (const { d, id } of written) if (d.refs.channelId) await addToChannel(trx, d.refs.channelId, 'links', id);
}

/** link.created for the account's webhooks that hear it, in the insert's transaction (the outbox). */
async function announce(ctx: AppContext, trx: Db, hearing: Hearing, written: Array<{ d: Draft; id: number }>): Promise<void> {
  if (hearing.length === 0 || written.length === 0) return;
  const data = written.map(({ d, id }) => ({
    id,
    alias: d.row.alias,
    shorturl: shortUrl(ctx.config, d.refs.domain, d.row.alias),
    longurl: d.row.long_url,
  }));
  await queueWebhookEvents(trx, hearing, written[0]!.d.row.user_id, 'link.created', data);
}

/**
 * A lone link without pixels, tags, channel or a webhook to tell is one INSERT, atomic by itself: a
 * transaction would only add BEGIN and COMMIT.
 */
const needsTransaction = (ready: Draft[], hearing: Hearing) =>
  ready.length > 1 || hearing.length > 0 || ready.some((d) => d.refs.pixels?.length || d.tags.length || d.refs.channelId);

async function writeAll(ctx: AppContext, ready: Draft[], pacer: Pacer, hearing: Hearing): Promise<Map<number, number>> {
  if (ready.length === 0) return new Map();
  const run = async (db: Db) => {
    const ids = await insertLinkRows(
      db,
      ready.map((d) => d.row),
      () => pacer.turn(),
    );
    const written = ready.map((d) => ({ d, id: ids.get(`${d.row.domain_id}/${d.row.alias}`)! }));
    await attach(db, written);
    await announce(ctx, db, hearing, written);
    return new Map(written.map(({ d, id }) => [d.index, id]));
  };
  return needsTransaction(ready, hearing) ? ctx.db.transaction().execute(run) : run(ctx.db);
}

/** One row in its own transaction; a random alias that another writer took meanwhile is drawn again, as before. */
async function writeOne(ctx: AppContext, d: Draft, hearing: Hearing): Promise<number | AppError> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const id = await insertLink(trx, d.row);
        await attach(trx, [{ d, id }]);
        await announce(ctx, trx, hearing, [{ d, id }]);
        return id;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (!d.random) return fail('alias_taken');
      if (attempt >= RANDOM_ATTEMPTS) return fail('aliases_exhausted');
      d.row = { ...d.row, alias: drawAlias() };
    }
  }
}

/** After a clash with a link added meanwhile: row by row, so only the clashing rows fail. */
async function writeEach(ctx: AppContext, ready: Draft[], outcomes: Outcome[], hearing: Hearing): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  for (const d of ready) {
    const result = await writeOne(ctx, d, hearing);
    if (result instanceof AppError) outcomes[d.index] = result;
    else ids.set(d.index, result);
  }
  return ids;
}

/** Write: the unique (domain, alias) constraint settles races with other writers; a custom alias that lost gets a clean 409. */
export async function write(ctx: AppContext, ready: Draft[], outcomes: Outcome[], pacer: Pacer, hearing: Hearing): Promise<Map<number, number>> {
  try {
    return await writeAll(ctx, ready, pacer, hearing);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return writeEach(ctx, ready, outcomes, hearing);
  }
}
