import type { AppContext } from '../../../context.js';
import type { DomainRow, LinkTypeColumns } from '../../../db/types.js';
import { resolveLinkDomain } from '../../domains/service.js';
import { ownPixelIds } from '../../pixels/service.js';
import { parseType } from './input.js';
import { ownsChannel } from '../../channels/access.js';
import { linkNeighbours } from '../ports.js';
import type { LinkInput } from '../schema.js';
import { fail } from '../../../lib/errors.js';

/** What a link request points at in the caller's account; undefined everywhere means "not sent". */
export interface LinkRefs {
  /** null: the default domain. */
  domain?: DomainRow | null;
  type?: LinkTypeColumns;
  pixels?: number[];
  campaignId?: number | null;
  channelId?: number;
}

async function typeRef(ctx: AppContext, userId: number, value: string | undefined, onUpdate: boolean): Promise<LinkRefs['type']> {
  const choice = parseType(value, onUpdate);
  if (!choice) return undefined;
  if (choice.type === 'overlay') {
    if (!(await linkNeighbours().ownsPage(ctx.db, 'overlay', userId, choice.overlayId)))
      throw fail('unknown_reference', 'type', 'overlay', choice.overlayId, 'overlay');
    return { type: 'overlay', splash_id: null, overlay_id: choice.overlayId };
  }
  const splashId = choice.splashId ?? null;
  if (splashId !== null && !(await linkNeighbours().ownsPage(ctx.db, 'splash', userId, splashId)))
    throw fail('unknown_reference', 'type', 'splash page', splashId, 'splash');
  return { type: choice.type, splash_id: splashId, overlay_id: null };
}

async function pixelRefs(ctx: AppContext, userId: number, ids: number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  const owned = new Set(await ownPixelIds(ctx, userId, unique));
  const missing = unique.find((id) => !owned.has(id));
  if (missing !== undefined) throw fail('unknown_reference', 'pixels', 'pixel', missing, 'pixels');
  return unique;
}

/** 0 and null mean "none"; any other id must be the caller's. */
async function ownedId(
  ctx: AppContext,
  userId: number,
  table: 'campaigns' | 'channels',
  id: number | null | undefined,
): Promise<number | null | undefined> {
  if (id === undefined) return undefined;
  if (id === null || id === 0) return null;
  const owns = table === 'campaigns' ? linkNeighbours().ownsCampaign : ownsChannel;
  if (!(await owns(ctx.db, userId, id))) {
    throw table === 'campaigns'
      ? fail('unknown_reference', 'campaign', 'campaign', id, 'campaigns')
      : fail('unknown_reference', 'channel', 'channel', id, 'channels');
  }
  return id;
}

/** Checks every id the request names against the caller's account; on add an absent domain is the default one. */
export async function resolveRefs(ctx: AppContext, userId: number, input: LinkInput, onUpdate: boolean): Promise<LinkRefs> {
  const refs: LinkRefs = {
    type: await typeRef(ctx, userId, input.type, onUpdate),
    pixels: await pixelRefs(ctx, userId, input.pixels),
    campaignId: await ownedId(ctx, userId, 'campaigns', input.campaign),
    channelId: (await ownedId(ctx, userId, 'channels', input.channel)) ?? undefined,
  };
  if (!onUpdate || input.domain !== undefined) refs.domain = await resolveLinkDomain(ctx, userId, input.domain);
  return refs;
}

const MAX_CACHED_REFS = 1000;

/** Each distinct combination of references is checked against the account once per import. */
export class RefCache {
  private readonly refs = new Map<string, Promise<LinkRefs>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly userId: number,
  ) {}

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
