import type { Db } from '../../db/connect.js';
import type { Page } from '../../lib/pagination.js';
import { itemSources, type ItemType } from './ports.js';

const TYPES: ItemType[] = ['links', 'bio', 'qr'];

/**
 * Channel rows whose item still exists and belongs to the account: items deleted elsewhere
 * disappear from channels without each deleting feature having to know about channels.
 */
function liveItems(db: Db, channelId: number, userId: number) {
  const sources = itemSources();
  return db
    .selectFrom('channel_items')
    .where('channel_id', '=', channelId)
    .where((eb) => eb.or(TYPES.map((type) => eb.and([eb('item_type', '=', type), sources[type].alive('channel_items.item_id', userId)]))));
}

export async function countItems(db: Db, channelId: number, userId: number): Promise<number> {
  const row = await liveItems(db, channelId, userId)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest assignments first. */
export function pageItems(db: Db, channelId: number, userId: number, page: Page) {
  return liveItems(db, channelId, userId)
    .select(['item_type', 'item_id'])
    .orderBy('created_at', 'desc')
    .orderBy('item_type')
    .orderBy('item_id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
