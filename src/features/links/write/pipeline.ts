import type { AppContext } from '../../../context.js';
import { invalidateAddress } from '../../../cache/public-cache.js';
import { AppError } from '../../../lib/errors.js';
import { Pacer } from '../../../infra/pacer.js';
import { shortUrl } from '../../../lib/short-url.js';
import { nowTimestamp } from '../../../lib/time.js';
import { webhooksHearing } from '../../webhooks/access.js';
import { linkNeighbours } from '../ports.js';
import type { LinkInput } from '../schema.js';
import { allocate, type Created, type Draft, draft, type NewItem, type Outcome } from './draft.js';
import { write } from './insert.js';
import { resolveRefs, type LinkRefs } from './refs.js';

/**
 * The one way a link is created, for `url/add`, `url/bulk` (an item at a time) and the CSV import (a chunk
 * at a time): validate and normalise each item, allocate the aliases of the whole batch in a few reads,
 * write with multi-row INSERTs, then drop the cached addresses (docs/performance.md#import).
 */
export type { Created, NewItem, Outcome } from './draft.js';

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
  const hearing = ready.length > 0 ? await webhooksHearing(ctx.db, userId, ['link.created']) : [];
  const ids = await write(ctx, ready, outcomes, pacer, hearing);
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
