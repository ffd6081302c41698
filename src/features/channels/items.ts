import type { AppContext } from '../../context.js';
import { listData, type Page } from '../../lib/pagination.js';
import { shortUrl } from '../../lib/short-url.js';
import { dateOnly } from '../../lib/time.js';
import * as itemsRepo from './items-repo.js';
import type { ItemType } from './repo.js';

export interface ChannelItemView {
  type: ItemType;
  id: number;
  title: string;
  preview: string;
  link: string;
  date: string;
}

type Resolved = Omit<ChannelItemView, 'type' | 'id'>;

/** One page of a channel's items, each resolved from its own table in one query per type. */
export async function channelItems(ctx: AppContext, userId: number, channelId: number, page: Page) {
  const [total, rows] = await Promise.all([
    itemsRepo.countItems(ctx.db, channelId, userId),
    itemsRepo.pageItems(ctx.db, channelId, userId, page),
  ]);
  const idsOf = (type: string) => rows.filter((r) => r.item_type === type).map((r) => r.item_id);
  const resolved = await resolve(ctx, idsOf('links'), idsOf('bio'), idsOf('qr'));
  const items: ChannelItemView[] = [];
  for (const row of rows) {
    const item = resolved.get(`${row.item_type}:${row.item_id}`);
    if (item) items.push({ type: row.item_type as ItemType, id: row.item_id, ...item });
  }
  return listData(page, total, items);
}

async function resolve(ctx: AppContext, linkIds: number[], bioIds: number[], qrIds: number[]): Promise<Map<string, Resolved>> {
  const [links, bios, qrs] = await Promise.all([
    itemsRepo.linksByIds(ctx.db, linkIds),
    itemsRepo.biosByIds(ctx.db, bioIds),
    itemsRepo.qrsByIds(ctx.db, qrIds),
  ]);
  const out = new Map<string, Resolved>();
  const base = ctx.config.BASE_URL;
  for (const l of links) {
    const domain = l.scheme && l.host ? { scheme: l.scheme, host: l.host } : null;
    out.set(`links:${l.id}`, { title: l.title || l.meta_title || l.long_url, preview: l.long_url, link: shortUrl(ctx.config, domain, l.alias), date: dateOnly(l.created_at) });
  }
  for (const b of bios) out.set(`bio:${b.id}`, { title: b.name, preview: `${base}/${b.alias}`, link: `${base}/${b.alias}`, date: dateOnly(b.created_at) });
  for (const q of qrs) out.set(`qr:${q.id}`, { title: q.name, preview: `${base}/qr/${q.slug}`, link: `${base}/qr/${q.slug}`, date: dateOnly(q.created_at) });
  return out;
}
