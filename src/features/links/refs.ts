import type { AppContext } from '../../context.js';
import type { DomainRow } from '../../db/types.js';
import { resolveLinkDomain } from '../domains/service.js';
import { ownPixelIds } from '../pixels/service.js';
import { LinkError } from './errors.js';
import { parseType } from './input.js';
import { ownsRow } from './repo.js';
import type { LinkInput } from './schema.js';

/** What a link request points at in the caller's account; undefined everywhere means "not sent". */
export interface LinkRefs {
  /** null: the default domain. */
  domain?: DomainRow | null;
  type?: { type: string; splash_id: number | null; overlay_id: number | null };
  pixels?: number[];
  campaignId?: number | null;
  channelId?: number;
}

async function typeRef(ctx: AppContext, userId: number, value: string | undefined, onUpdate: boolean): Promise<LinkRefs['type']> {
  const choice = parseType(value, onUpdate);
  if (!choice) return undefined;
  if (choice.type === 'overlay') {
    if (!(await ownsRow(ctx.db, 'overlays', userId, choice.overlayId))) throw LinkError.unknownOverlay(choice.overlayId);
    return { type: 'overlay', splash_id: null, overlay_id: choice.overlayId };
  }
  const splashId = choice.splashId ?? null;
  if (splashId !== null && !(await ownsRow(ctx.db, 'splash_pages', userId, splashId))) throw LinkError.unknownSplash(splashId);
  return { type: choice.type, splash_id: splashId, overlay_id: null };
}

async function pixelRefs(ctx: AppContext, userId: number, ids: number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  const owned = new Set(await ownPixelIds(ctx, userId, unique));
  const missing = unique.find((id) => !owned.has(id));
  if (missing !== undefined) throw LinkError.unknownPixel(missing);
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
  if (!(await ownsRow(ctx.db, table, userId, id))) {
    throw table === 'campaigns' ? LinkError.unknownCampaign(id) : LinkError.unknownChannel(id);
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
