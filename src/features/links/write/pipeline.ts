import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connect.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import type { NewLink } from '../../../db/types.js';
import { invalidateAddress } from '../../../cache/public-cache.js';
import { AppError, fail } from '../../../lib/errors.js';
import { Pacer } from '../../../infra/pacer.js';
import { isReserved } from '../../../lib/reserved.js';
import { randomAlias } from '../../../infra/secrets.js';
import { shortUrl } from '../../../lib/short-url.js';
import { nowTimestamp } from '../../../lib/time.js';
import { addToChannel } from '../../channels/access.js';
import { addLinkPixels } from '../../pixels/service.js';
import { aliasesTaken } from '../access.js';
import { linkNeighbours } from '../ports.js';
import { insertLink, insertLinkRows } from '../repo.js';
import type { LinkInput } from '../schema.js';
import { checkAlias, linkColumns, passwordColumn } from './input.js';
import { resolveRefs, type LinkRefs } from './refs.js';

/**
 * The one way a link is created, for `url/add`, `url/bulk` (an item at a time) and the CSV import (a chunk
 * at a time): validate and normalise each item, allocate the aliases of the whole batch in a few reads,
 * write with multi-row INSERTs, then drop the cached addresses (docs/performance.md#import).
 */
export interface NewItem {
  input: LinkInput;
  /** Kept from the source file; now when absent. */
  createdAt?: string;
}

export type Created = { id: number; shorturl: string };
export type Outcome = Created | AppError;

const RANDOM_ATTEMPTS = 8;

interface Draft {
  index: number;
  row: NewLink;
  refs: LinkRefs;
  random: boolean;
}

function drawAlias(): string {
  for (;;) {
    const alias = randomAlias();
    if (!isReserved(alias)) return alias;
  }
}

/** Validate and normalise: the full row of one item (every column named, for multi-row INSERTs), or the error that refuses it. */
async function draft(userId: number, item: NewItem, index: number, refs: LinkRefs, now: string): Promise<Draft> {
  const { input } = item;
  const columns = linkColumns(input);
  const custom = input.custom?.trim() ? checkAlias(input.custom.trim()) : undefined;
  const password_hash = (await passwordColumn(input.password)) ?? null;
  const type = refs.type ?? { type: 'direct', splash_id: null, overlay_id: null };
  const row: NewLink = {
    user_id: userId,
    domain_id: refs.domain?.id ?? 0,
    alias: custom ?? drawAlias(),
    long_url: columns.long_url!,
    title: columns.title ?? '',
    description: columns.description ?? '',
    meta_title: columns.meta_title ?? '',
    meta_description: columns.meta_description ?? '',
    meta_image: columns.meta_image ?? '',
    ...type,
    password_hash,
    expiry: columns.expiry ?? null,
    geo_targets: columns.geo_targets ?? '[]',
    device_targets: columns.device_targets ?? '[]',
    language_targets: columns.language_targets ?? '[]',
    parameters: columns.parameters ?? '[]',
    campaign_id: refs.campaignId ?? null,
    created_at: item.createdAt ?? now,
    updated_at: now,
  };
  return { index, row, refs, random: !custom };
}

/** Allocate: taken custom aliases (and repeats within the batch) fail; random ones are drawn again until free. */
async function allocate(db: Db, drafts: Draft[], outcomes: Outcome[]): Promise<Draft[]> {
  const claimed = new Set<string>();
  const ready: Draft[] = [];
  let todo = drafts;
  for (let attempt = 1; todo.length > 0; attempt++) {
    const retry: Draft[] = [];
    for (const domainId of new Set(todo.map((d) => d.row.domain_id ?? 0))) {
      const group = todo.filter((d) => (d.row.domain_id ?? 0) === domainId);
      const taken = await aliasesTaken(
        db,
        domainId,
        group.map((d) => d.row.alias),
      );
      for (const d of group) {
        const key = `${domainId}/${d.row.alias}`;
        if (!taken.has(d.row.alias) && !claimed.has(key)) {
          claimed.add(key);
          ready.push(d);
        } else if (!d.random) outcomes[d.index] = fail('alias_taken');
        else if (attempt >= RANDOM_ATTEMPTS) outcomes[d.index] = fail('aliases_exhausted');
        else retry.push({ ...d, row: { ...d.row, alias: drawAlias() } });
      }
    }
    todo = retry;
  }
  return ready;
}

/** Pixels and channel of links just inserted, in the same transaction. */
async function attach(trx: Db, written: Array<{ d: Draft; id: number }>): Promise<void> {
  await addLinkPixels(
    trx,
    written.flatMap(({ d, id }) => (d.refs.pixels ?? []).map((pixel_id) => ({ link_id: id, pixel_id }))),
  );
  for (const { d, id } of written) if (d.refs.channelId) await addToChannel(trx, d.refs.channelId, 'links', id);
}

/** A lone link without pixels or channel is one INSERT, atomic by itself: a transaction would only add BEGIN and COMMIT. */
const needsTransaction = (ready: Draft[]) => ready.length > 1 || ready.some((d) => d.refs.pixels?.length || d.refs.channelId);

async function writeAll(ctx: AppContext, ready: Draft[], pacer: Pacer): Promise<Map<number, number>> {
  if (ready.length === 0) return new Map();
  const run = async (db: Db) => {
    const ids = await insertLinkRows(
      db,
      ready.map((d) => d.row),
      () => pacer.turn(),
    );
    const written = ready.map((d) => ({ d, id: ids.get(`${d.row.domain_id}/${d.row.alias}`)! }));
    await attach(db, written);
    return new Map(written.map(({ d, id }) => [d.index, id]));
  };
  return needsTransaction(ready) ? ctx.db.transaction().execute(run) : run(ctx.db);
}

/** One row in its own transaction; a random alias that another writer took meanwhile is drawn again, as before. */
async function writeOne(ctx: AppContext, d: Draft): Promise<number | AppError> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const id = await insertLink(trx, d.row);
        await attach(trx, [{ d, id }]);
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
async function writeEach(ctx: AppContext, ready: Draft[], outcomes: Outcome[]): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  for (const d of ready) {
    const result = await writeOne(ctx, d);
    if (result instanceof AppError) outcomes[d.index] = result;
    else ids.set(d.index, result);
  }
  return ids;
}

/** Write: the unique (domain, alias) constraint settles races with other writers; a custom alias that lost gets a clean 409. */
async function write(ctx: AppContext, ready: Draft[], outcomes: Outcome[], pacer: Pacer): Promise<Map<number, number>> {
  try {
    return await writeAll(ctx, ready, pacer);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return writeEach(ctx, ready, outcomes);
  }
}

export interface CreateOptions {
  /** The checked references of an item (an import caches them per distinct combination); each is checked alone by default. */
  refs?(input: LinkInput): Promise<LinkRefs>;
  /** Gives the event loop its turns between items and statements (an import's). */
  pacer?: Pacer;
}

/**
 * Creates the items; one outcome per item, in order. Errors other than the items' own are thrown. Then
 * invalidates: a node may have cached an address as unknown, or a campaign's rotation without the link.
 */
export async function createLinks(ctx: AppContext, userId: number, items: NewItem[], options: CreateOptions = {}): Promise<Outcome[]> {
  const pacer = options.pacer ?? new Pacer();
  const refsOf = options.refs ?? ((input: LinkInput) => resolveRefs(ctx, userId, input, false));
  const outcomes = new Array<Outcome>(items.length);
  const now = nowTimestamp();
  const drafts: Draft[] = [];
  for (const [index, item] of items.entries()) {
    await pacer.turn();
    try {
      drafts.push(await draft(userId, item, index, await refsOf(item.input), now));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes[index] = error;
    }
  }
  const ready = await allocate(ctx.db, drafts, outcomes);
  const ids = await write(ctx, ready, outcomes, pacer);
  for (const d of ready) {
    await pacer.turn();
    const id = ids.get(d.index);
    if (id === undefined) continue;
    outcomes[d.index] = { id, shorturl: shortUrl(ctx.config, d.refs.domain, d.row.alias) };
    invalidateAddress(ctx, d.refs.domain?.host, d.row.alias);
  }
  await linkNeighbours().campaignsChanged(
    ctx,
    ready.filter((d) => ids.has(d.index)).map((d) => d.row.campaign_id),
  );
  return outcomes;
}

/** One link, as `url/add` creates it: the pipeline with a batch of one; its own error is thrown. */
export async function createLink(ctx: AppContext, userId: number, input: LinkInput): Promise<Created> {
  const [outcome] = await createLinks(ctx, userId, [{ input }]);
  if (outcome instanceof AppError) throw outcome;
  return outcome!;
}
