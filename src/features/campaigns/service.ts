import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { fail } from '../../lib/errors.js';
import { listData, type Page } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { invalidateRotator } from '../../cache/public-cache.js';
import { leaveCampaign, moveLinkToCampaign } from '../links/access.js';
import * as repo from './repo.js';
import type { CampaignWithOwner } from './repo.js';
import type { Static } from 'typebox';
import type { CampaignEntry } from './schema.js';

const SLUG = /^[A-Za-z0-9_-]{3,64}$/;
const DEFAULT_NAME = 'Campaign';

export type CampaignView = Static<typeof CampaignEntry>;

/** The tail of the list URL: the slug, else the name made URL-safe, else "campaign"; then a dash and the id. */
export function listTail(campaign: { id: number; name: string; slug: string | null }): string {
  const fromName = campaign.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '');
  return `${campaign.slug ?? (fromName || 'campaign')}-${campaign.id}`;
}

export function toView(config: Config, row: CampaignWithOwner): CampaignView {
  return {
    id: row.id,
    name: row.name,
    public: row.public === 1,
    rotator: row.slug ? `${config.BASE_URL}/r/${row.slug}` : false,
    list: `${config.BASE_URL}/u/${encodeURIComponent(row.username)}/${listTail(row)}`,
  };
}

export async function listCampaigns(ctx: AppContext, userId: number, page: Page) {
  const [total, rows] = await Promise.all([repo.countCampaigns(ctx.db, userId), repo.listCampaigns(ctx.db, userId, page)]);
  return listData(
    page,
    total,
    rows.map((row) => toView(ctx.config, row)),
  );
}

async function ownCampaign(ctx: AppContext, userId: number, id: number): Promise<CampaignWithOwner> {
  const row = await repo.findCampaign(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Campaign');
  return row;
}

/** undefined keeps `current`; "" and null remove the slug. */
function checkSlug(slug: string | null | undefined, current: string | null): string | null {
  if (slug === undefined) return current;
  if (slug === null || slug.trim() === '') return null;
  if (!SLUG.test(slug.trim())) throw fail('slug_invalid');
  return slug.trim();
}

/** "Campaign N" with the first free N from the number of campaigns plus one, so a nameless add never collides. */
async function defaultName(ctx: AppContext, userId: number): Promise<string> {
  const taken = await repo.namesStartingWith(ctx.db, userId, `${DEFAULT_NAME} `);
  let n = (await repo.countCampaigns(ctx.db, userId)) + 1;
  while (taken.has(`${DEFAULT_NAME} ${n}`)) n += 1;
  return `${DEFAULT_NAME} ${n}`;
}

interface Fields {
  name: string;
  slug: string | null;
  public: number;
}

async function checkFree(ctx: AppContext, userId: number, fields: Fields, exceptId = 0): Promise<void> {
  if (await repo.nameTaken(ctx.db, userId, fields.name, exceptId)) throw fail('campaign_name_taken');
  if (fields.slug && (await repo.slugTaken(ctx.db, fields.slug, exceptId))) throw fail('slug_taken');
}

/** Runs a write, turning a lost race on the unique name or slug into the same 409 the checks give. */
async function saving<T>(ctx: AppContext, userId: number, fields: Fields, exceptId: number, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await checkFree(ctx, userId, fields, exceptId);
    throw fail('campaign_name_taken');
  }
}

export async function addCampaign(ctx: AppContext, userId: number, input: { name?: string; slug?: string | null; public?: boolean }) {
  const fields: Fields = {
    name: input.name?.trim() || (await defaultName(ctx, userId)),
    slug: checkSlug(input.slug, null),
    public: input.public ? 1 : 0,
  };
  await checkFree(ctx, userId, fields);
  const id = await saving(ctx, userId, fields, 0, () => repo.insertCampaign(ctx.db, { user_id: userId, ...fields, created_at: nowTimestamp() }));
  if (fields.slug) invalidateRotator(ctx, fields.slug);
  return toView(ctx.config, await ownCampaign(ctx, userId, id));
}

export async function updateCampaign(ctx: AppContext, userId: number, id: number, input: { name: string; slug?: string | null; public?: boolean }) {
  const current = await ownCampaign(ctx, userId, id);
  const name = input.name.trim();
  if (!name) throw fail('name_required', 'The campaign name');
  const fields: Fields = {
    name,
    slug: checkSlug(input.slug, current.slug),
    public: input.public === undefined ? current.public : input.public ? 1 : 0,
  };
  await checkFree(ctx, userId, fields, id);
  await saving(ctx, userId, fields, id, () => repo.updateCampaign(ctx.db, id, fields));
  for (const slug of new Set([current.slug, fields.slug])) if (slug) invalidateRotator(ctx, slug);
  return toView(ctx.config, await ownCampaign(ctx, userId, id));
}

export async function assignLink(ctx: AppContext, userId: number, campaignId: number, linkId: number): Promise<void> {
  const campaign = await ownCampaign(ctx, userId, campaignId);
  const previous = await moveLinkToCampaign(ctx, userId, linkId, campaign.id);
  if (previous === undefined) throw fail('not_found', 'Link');
  await invalidateCampaigns(ctx, [campaign.id, previous]);
}

export async function deleteCampaign(ctx: AppContext, userId: number, id: number): Promise<void> {
  const campaign = await ownCampaign(ctx, userId, id);
  await leaveCampaign(ctx, id, (trx) => repo.deleteCampaign(trx, id));
  if (campaign.slug) invalidateRotator(ctx, campaign.slug);
}

/**
 * Rotators reload their link lists: any write that adds a link to a campaign or takes one out calls
 * this with the old and new campaign ids (null and 0 are ignored).
 */
export async function invalidateCampaigns(ctx: AppContext, campaignIds: Array<number | null | undefined>): Promise<void> {
  const ids = [...new Set(campaignIds.filter((id): id is number => typeof id === 'number' && id > 0))];
  for (const slug of await repo.campaignSlugs(ctx.db, ids)) invalidateRotator(ctx, slug);
}
