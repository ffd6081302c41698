import type { AppContext } from '../../context.js';
import { listData, type Page } from '../../lib/pagination.js';
import * as itemsRepo from './items-repo.js';
import { itemSources, type ItemType, type ItemView } from './ports.js';

export interface ChannelItemView extends ItemView {
  type: ItemType;
  id: number;
}

/** One page of a channel's items, each resolved by its owner in one query per type. */
export async function channelItems(ctx: AppContext, userId: number, channelId: number, page: Page) {
  const [total, rows] = await Promise.all([itemsRepo.countItems(ctx.db, channelId, userId), itemsRepo.pageItems(ctx.db, channelId, userId, page)]);
  const idsOf = (type: string) => rows.filter((r) => r.item_type === type).map((r) => r.item_id);
  const sources = itemSources();
  const [links, bio, qr] = await Promise.all([
    sources.links.views(ctx, idsOf('links')),
    sources.bio.views(ctx, idsOf('bio')),
    sources.qr.views(ctx, idsOf('qr')),
  ]);
  const resolved = { links, bio, qr };
  const items: ChannelItemView[] = [];
  for (const row of rows) {
    const item = resolved[row.item_type as ItemType]?.get(row.item_id);
    if (item) items.push({ type: row.item_type as ItemType, id: row.item_id, ...item });
  }
  return listData(page, total, items);
}
