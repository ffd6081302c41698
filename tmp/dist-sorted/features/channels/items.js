import { listData } from '../../lib/pagination.js';
import { shortUrl } from '../../lib/short-url.js';
import { dateOnly } from '../../lib/time.js';
import * as itemsRepo from './items-repo.js';
/** One page of a channel's items, each resolved from its own table in one query per type. */
export async function channelItems(ctx, userId, channelId, page) {
    const [total, rows] = await Promise.all([
        itemsRepo.countItems(ctx.db, channelId, userId),
        itemsRepo.pageItems(ctx.db, channelId, userId, page),
    ]);
    const idsOf = (type) => rows.filter((r) => r.item_type === type).map((r) => r.item_id);
    const resolved = await resolve(ctx, idsOf('links'), idsOf('bio'), idsOf('qr'));
    const items = [];
    for (const row of rows) {
        const item = resolved.get(`${row.item_type}:${row.item_id}`);
        if (item)
            items.push({ type: row.item_type, id: row.item_id, ...item });
    }
    return listData(page, total, items);
}
async function resolve(ctx, linkIds, bioIds, qrIds) {
    const [links, bios, qrs] = await Promise.all([
        itemsRepo.linksByIds(ctx.db, linkIds),
        itemsRepo.biosByIds(ctx.db, bioIds),
        itemsRepo.qrsByIds(ctx.db, qrIds),
    ]);
    const out = new Map();
    const base = ctx.config.BASE_URL;
    for (const l of links) {
        const domain = l.scheme && l.host ? { scheme: l.scheme, host: l.host } : null;
        out.set(`links:${l.id}`, { title: l.title || l.meta_title || l.long_url, preview: l.long_url, link: shortUrl(ctx.config, domain, l.alias), date: dateOnly(l.created_at) });
    }
    for (const b of bios)
        out.set(`bio:${b.id}`, { title: b.name, preview: `${base}/${b.alias}`, link: `${base}/${b.alias}`, date: dateOnly(b.created_at) });
    for (const q of qrs)
        out.set(`qr:${q.id}`, { title: q.name, preview: `${base}/qr/${q.slug}`, link: `${base}/qr/${q.slug}`, date: dateOnly(q.created_at) });
    return out;
}
//# sourceMappingURL=items.js.map