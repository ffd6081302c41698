import type { Expression, SqlBool } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { port } from '../../lib/port.js';

export type ItemType = 'links' | 'bio' | 'qr';

/** How a channel row names one item, resolved by the item's owner. */
export interface ItemView {
  title: string;
  preview: string;
  link: string;
  date: string;
}

/**
 * What channels asks of each item's owner (links, custom pages, QR codes), which import channels to
 * add and forget their items: plugged in by src/compose.ts.
 */
export interface ItemSource {
  owns(db: Db, userId: number, id: number): Promise<boolean>;
  /** True when the item at `itemIdColumn` still exists and is the account's, for the channel's own query. */
  alive(itemIdColumn: string, userId: number): Expression<SqlBool>;
  views(ctx: AppContext, ids: number[]): Promise<Map<number, ItemView>>;
}

export const itemSources = port<Record<ItemType, ItemSource>>('channels: item sources');
