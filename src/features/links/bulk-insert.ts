import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { NewLink } from '../../db/types.js';
import { AppError, fail } from '../../lib/errors.js';
import { isReserved } from '../../lib/reserved.js';
import { randomAlias } from '../../lib/secrets.js';
import { shortUrl } from '../../lib/short-url.js';
import { Pacer } from '../../lib/pacer.js';
import { nowTimestamp } from '../../lib/time.js';
import { invalidateAddress, invalidateCampaigns } from '../../cache/public-cache.js';
import { addLinkPixels } from '../pixels/service.js';
import * as bulkRepo from './bulk-repo.js';
import { checkAlias, linkColumns, passwordColumn } from './input.js';
import { resolveRefs, type LinkRefs } from './refs.js';
import { addToChannel, insertLink } from './repo.js';
import type { LinkInput } from './schema.js';

/**
 * Many links created at once under the rules of `POST /api/url/add`, for imports: the rows are checked one
 * by one, then the aliases of the whole chunk are read in a few queries and the links written with
 * multi-row INSERTs in one transaction, instead of a read and an insert per link (docs/performance.md#import).
 */
export interface BulkItem {
  input: LinkInput;
  /** Kept from the source file; now when absent. */
  createdAt?: string;
}

export type BulkOutcome = { id: number; shorturl: string } | AppError;

const RANDOM_ATTEMPTS = 8;
const MAX_CACHED_REFS = 1000;

/** Each distinct combination of references is checked against the account once per import. */
export class RefCache {
  private readonly refs = new Map<string, Promise<LinkRefs>>();

  constructor(private readonly ctx: AppContext, private readonly userId: number) {}

  get(input: LinkInput): Promise<LinkRefs> {
    const key = JSON.stringify([input.domain, input.type, input.pixels, input.campaign, input.channel]);
    let refs = this.refs.get(key);
    if (!refs) {
      if (this.refs.size >= MAX_CACHED_REFS) this.refs.clear();
      refs = resolveRefs(this.ctx, this.userId, input, false);
      refs.catch(() => undefined); // awaited by each row that names it
      this.refs.set(key, refs);
    }
    return refs;
  }
}

interface Pending {
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

/** The full row of one item (every column named, for multi-row INSERTs), or the error that refuses it. */
async function prepare(ctx: AppContext, userId: number, item: BulkItem, index: number, cache: RefCache, now: string): Promise<Pending> {
  const { input } = item;
  const columns = linkColumns(input);
  const custom = input.custom?.trim() ? checkAlias(input.custom.trim()) : undefined;
  const password_hash = (await passwordColumn(input.password)) ?? null;
  const refs = await cache.get(input);
  const type = refs.type ?? { type: 'direct', splash_id: null, overlay_id: null };
  const row: NewLink = {
    user_id: userId, domain_id: refs.domain?.id ?? 0, alias: custom ?? drawAlias(), long_url: columns.long_url!,
    title: columns.title ?? '', description: columns.description ?? '', meta_title: columns.meta_title ?? '',
    meta_description: columns.meta_description ?? '', meta_image: columns.meta_image ?? '', ...type, password_hash,
    expiry: columns.expiry ?? null, geo_targets: columns.geo_targets ?? '[]', device_targets: columns.device_targets ?? '[]',
    language_targets: columns.language_targets ?? '[]', parameters: columns.parameters ?? '[]',
    campaign_id: refs.campaignId ?? null, created_at: item.createdAt ?? now, updated_at: now,
  };
  return { index, row, refs, random: !custom };
}

/** Taken custom aliases (and repeats within the chunk) fail; random ones are drawn again until free. */
async function claimAliases(ctx: AppContext, pending: Pending[], outcomes: BulkOutcome[]): Promise<Pending[]> {
  const claimed = new Set<string>();
  const ready: Pending[] = [];
  let todo = pending;
  for (let attempt = 1; todo.length > 0; attempt++) {
    const retry: Pending[] = [];
    for (const domainId of new Set(todo.map((p) => p.row.domain_id ?? 0))) {
      const group = todo.filter((p) => (p.row.domain_id ?? 0) === domainId);
      const taken = await bulkRepo.takenAliases(ctx.db, domainId, group.map((p) => p.row.alias));
      for (const p of group) {
        const key = `${domainId}/${p.row.alias}`;
        if (!taken.has(p.row.alias) && !claimed.has(key)) {
          claimed.add(key);
          ready.push(p);
        } else if (!p.random) outcomes[p.index] = fail('alias_taken');
        else if (attempt >= RANDOM_ATTEMPTS) outcomes[p.index] = fail('aliases_exhausted');
        else retry.push({ ...p, row: { ...p.row, alias: drawAlias() } });
      }
    }
    todo = retry;
  }
  return ready;
}

/** Pixels and channel of links just inserted, in the same transaction. */
async function attach(trx: AppContext['db'], written: Array<{ p: Pending; id: number }>): Promise<void> {
  await addLinkPixels(trx, written.flatMap(({ p, id }) => (p.refs.pixels ?? []).map((pixel_id) => ({ link_id: id, pixel_id }))));
  for (const { p, id } of written) if (p.refs.channelId) await addToChannel(trx, p.refs.channelId, id);
}

async function writeAll(ctx: AppContext, ready: Pending[], pacer: Pacer): Promise<Map<number, number>> {
  if (ready.length === 0) return new Map();
  return ctx.db.transaction().execute(async (trx) => {
    const ids = await bulkRepo.insertLinkRows(trx, ready.map((p) => p.row), () => pacer.turn());
    const written = ready.map((p) => ({ p, id: ids.get(`${p.row.domain_id}/${p.row.alias}`)! }));
    await attach(trx, written);
    return new Map(written.map(({ p, id }) => [p.index, id]));
  });
}

/** After a clash with a link added meanwhile: row by row, so only the clashing rows fail. */
async function writeEach(ctx: AppContext, ready: Pending[], outcomes: BulkOutcome[]): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  for (const p of ready) {
    try {
      ids.set(p.index, await ctx.db.transaction().execute(async (trx) => {
        const id = await insertLink(trx, p.row);
        await attach(trx, [{ p, id }]);
        return id;
      }));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      outcomes[p.index] = fail('alias_taken');
    }
  }
  return ids;
}

/**
 * Creates the items as url/add would; one outcome per item, in order. Errors other than the rows' own are thrown.
 * Items are prepared one by one, with the pacer's turns between them (a password is hashed on the threadpool).
 */
export async function insertLinks(
  ctx: AppContext, userId: number, items: BulkItem[], cache = new RefCache(ctx, userId), pacer = new Pacer(),
): Promise<BulkOutcome[]> {
  const outcomes = new Array<BulkOutcome>(items.length);
  const now = nowTimestamp();
  const pending: Pending[] = [];
  for (const [index, item] of items.entries()) {
    await pacer.turn();
    try {
      pending.push(await prepare(ctx, userId, item, index, cache, now));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes[index] = error;
    }
  }
  const ready = await claimAliases(ctx, pending, outcomes);
  let ids: Map<number, number>;
  try {
    ids = await writeAll(ctx, ready, pacer);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    ids = await writeEach(ctx, ready, outcomes);
  }
  for (const p of ready) {
    await pacer.turn();
    const id = ids.get(p.index);
    if (id === undefined) continue;
    outcomes[p.index] = { id, shorturl: shortUrl(ctx.config, p.refs.domain, p.row.alias) };
    invalidateAddress(ctx, p.refs.domain?.host, p.row.alias);
  }
  await invalidateCampaigns(ctx, ready.map((p) => p.row.campaign_id));
  return outcomes;
}
