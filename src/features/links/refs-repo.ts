import type { Db } from '../../db/connect.js';
import { domainAddressOf } from '../domains/access.js';

/** The links' columns that point at other features' rows (campaign, splash page, overlay), for those owners. */

export interface CampaignLinkRow {
  id: number;
  user_id: number;
  alias: string;
  title: string;
  meta_title: string;
  long_url: string;
  password_hash: string | null;
  expiry: string | null;
  scheme: string | null;
  host: string | null;
}

/** The campaign's links in a stable order, with their domain for short URLs and cache keys. */
export function campaignLinks(db: Db, campaignId: number, limit: number): Promise<CampaignLinkRow[]> {
  return db
    .selectFrom('links')
    .select(['links.id', 'links.user_id', 'links.alias', 'links.title', 'links.meta_title', 'links.long_url', 'links.password_hash', 'links.expiry'])
    .select(domainAddressOf('links.domain_id'))
    .where('links.campaign_id', '=', campaignId)
    .orderBy('links.id')
    .limit(limit)
    .execute();
}

/** The caller's link, for the assign check; campaign_id tells which rotator loses it. */
export function findOwnLinkCampaign(db: Db, userId: number, linkId: number) {
  return db.selectFrom('links').select(['id', 'campaign_id']).where('id', '=', linkId).where('user_id', '=', userId).executeTakeFirst();
}

export async function setLinkCampaign(db: Db, linkId: number, campaignId: number): Promise<void> {
  await db.updateTable('links').set({ campaign_id: campaignId }).where('id', '=', linkId).execute();
}

/** The campaign's links leave it (they are kept); returns their ids. Takes the campaign owner's transaction. */
export async function leaveCampaign(db: Db, campaignId: number): Promise<number[]> {
  const links = await db.selectFrom('links').select('id').where('campaign_id', '=', campaignId).execute();
  await db.updateTable('links').set({ campaign_id: null }).where('campaign_id', '=', campaignId).execute();
  return links.map((l) => l.id);
}

/** How links point at a splash page or an overlay: the id column and the link type that uses it. */
export const PAGE_USE = {
  splash: { column: 'splash_id', type: 'splash' },
  overlay: { column: 'overlay_id', type: 'overlay' },
} as const;

export type PageKind = keyof typeof PAGE_USE;

export async function linksUsing(db: Db, kind: PageKind, id: number): Promise<number[]> {
  const rows = await db.selectFrom('links').select('id').where(PAGE_USE[kind].column, '=', id).execute();
  return rows.map((r) => r.id);
}

/** Links using the page fall back to direct redirects, so none breaks. Returns their ids; takes the page owner's transaction. */
export async function detachPage(db: Db, kind: PageKind, id: number): Promise<number[]> {
  const { column, type } = PAGE_USE[kind];
  const ids = await linksUsing(db, kind, id);
  await db.updateTable('links').set({ type: 'direct' }).where(column, '=', id).where('type', '=', type).execute();
  await db
    .updateTable('links')
    .set({ [column]: null })
    .where(column, '=', id)
    .execute();
  return ids;
}
