import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Page } from '../../lib/pagination.js';

import type { ItemType } from './ports.js';

export type { ItemType };

export interface ChannelFields {
  name: string;
  description: string;
  color: string;
  starred: number;
}

const COLUMNS = ['id', 'name', 'description', 'color', 'starred'] as const;

export function findChannel(db: Db, userId: number, id: number) {
  return db.selectFrom('channels').select(COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function countChannels(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('channels')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Starred first, then newest: the dashboard shows the channels someone marked at the top of every page. */
export function listChannels(db: Db, userId: number, page: Page) {
  return db
    .selectFrom('channels')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('starred', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function nameTaken(db: Db, userId: number, name: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('channels')
    .select('id')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertChannel(db: Db, values: ChannelFields & { user_id: number; created_at: string }): Promise<number> {
  const row = await db.insertInto('channels').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateChannel(db: Db, id: number, changes: Partial<ChannelFields>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('channels').set(changes).where('id', '=', id).execute();
}

/** Items are unassigned first, then the channel goes; the items themselves are untouched. */
export async function deleteChannel(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('channel_items').where('channel_id', '=', id).execute();
    await trx.deleteFrom('channels').where('id', '=', id).execute();
  });
}

/** Assigning twice keeps the first row (and its date): idempotent. */
export async function assignItem(db: Db, channelId: number, type: ItemType, itemId: number, createdAt: string): Promise<void> {
  await db
    .insertInto('channel_items')
    .values({ channel_id: channelId, item_type: type, item_id: itemId, created_at: createdAt })
    .onConflict((oc) => oc.columns(['channel_id', 'item_type', 'item_id']).doNothing())
    .execute();
}

/** Removing an item that is not in the channel changes nothing, like assigning twice. */
export async function unassignItem(db: Db, channelId: number, type: ItemType, itemId: number): Promise<void> {
  await db.deleteFrom('channel_items').where('channel_id', '=', channelId).where('item_type', '=', type).where('item_id', '=', itemId).execute();
}

/** The item's rows in every channel, when its owner deletes it; takes the owner's transaction. */
export async function forgetItem(db: Db, type: ItemType, itemId: number): Promise<void> {
  await db.deleteFrom('channel_items').where('item_type', '=', type).where('item_id', '=', itemId).execute();
}

/** The channel's item ids of one type as a subquery, for lists and series narrowed to a channel. */
export function channelItemIds(channelId: number, type: ItemType) {
  return sql<number>`(select item_id from channel_items where channel_id = ${channelId} and item_type = ${type})`;
}

export async function ownsChannel(db: Db, userId: number, id: number): Promise<boolean> {
  return (await db.selectFrom('channels').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

/** The first of the account's channels the item was added to (null: none), as the add request names one. */
export async function firstChannelOf(db: Db, userId: number, type: ItemType, itemId: number): Promise<number | null> {
  const row = await db
    .selectFrom('channel_items')
    .innerJoin('channels', 'channels.id', 'channel_items.channel_id')
    .select('channel_items.channel_id')
    .where('channel_items.item_type', '=', type)
    .where('channel_items.item_id', '=', itemId)
    .where('channels.user_id', '=', userId)
    .orderBy('channel_items.created_at')
    .orderBy('channel_items.channel_id')
    .executeTakeFirst();
  return row?.channel_id ?? null;
}
