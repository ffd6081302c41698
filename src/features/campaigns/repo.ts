import type { Db } from '../../db/connect.js';
import type { Page } from '../../lib/pagination.js';
import { usernameOf } from '../account/access.js';

const CAMPAIGN_COLUMNS = ['campaigns.id', 'campaigns.name', 'campaigns.slug', 'campaigns.public'] as const;

export type CampaignWithOwner = { id: number; name: string; slug: string | null; public: number; username: string };

function withOwner(db: Db) {
  return db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).select(usernameOf('campaigns.user_id').as('username'));
}

export function findCampaign(db: Db, userId: number, id: number): Promise<CampaignWithOwner | undefined> {
  return withOwner(db).where('campaigns.id', '=', id).where('campaigns.user_id', '=', userId).executeTakeFirst();
}

/** The public list page: found by id, then checked against the username and public flag by the caller. */
export function findCampaignById(db: Db, id: number): Promise<CampaignWithOwner | undefined> {
  return withOwner(db).where('campaigns.id', '=', id).executeTakeFirst();
}

export async function countCampaigns(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listCampaigns(db: Db, userId: number, page: Page): Promise<CampaignWithOwner[]> {
  return withOwner(db).where('campaigns.user_id', '=', userId).orderBy('campaigns.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function namesStartingWith(db: Db, userId: number, prefix: string): Promise<Set<string>> {
  const rows = await db.selectFrom('campaigns').select('name').where('user_id', '=', userId).where('name', 'like', `${prefix}%`).execute();
  return new Set(rows.map((r) => r.name));
}

/** Another campaign of the same account with this name (excluding `exceptId`). */
export async function nameTaken(db: Db, userId: number, name: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('campaigns')
    .select('id')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function slugTaken(db: Db, slug: string, exceptId = 0): Promise<boolean> {
  const row = await db.selectFrom('campaigns').select('id').where('slug', '=', slug).where('id', '!=', exceptId).executeTakeFirst();
  return row !== undefined;
}

export async function insertCampaign(
  db: Db,
  values: { user_id: number; name: string; slug: string | null; public: number; created_at: string },
): Promise<number> {
  const row = await db.insertInto('campaigns').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCampaign(db: Db, id: number, changes: { name: string; slug: string | null; public: number }): Promise<void> {
  await db.updateTable('campaigns').set(changes).where('id', '=', id).execute();
}

/** Deletes the campaign row; takes the links' owner's transaction (links leave it there first). */
export async function deleteCampaign(db: Db, id: number): Promise<void> {
  await db.deleteFrom('campaigns').where('id', '=', id).execute();
}

export function findCampaignIdBySlug(db: Db, slug: string) {
  return db.selectFrom('campaigns').select('id').where('slug', '=', slug).executeTakeFirst();
}

export async function ownsCampaign(db: Db, userId: number, id: number): Promise<boolean> {
  return (await db.selectFrom('campaigns').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

/** The rotator slugs of the given campaigns (campaigns without one are left out). */
export async function campaignSlugs(db: Db, campaignIds: number[]): Promise<string[]> {
  if (campaignIds.length === 0) return [];
  const rows = await db.selectFrom('campaigns').select('slug').where('id', 'in', campaignIds).where('slug', 'is not', null).execute();
  return rows.map((r) => r.slug!);
}
