import { shortUrl } from '../../lib/short-url.js';
/** Social networks the detail always reports, 0 when nobody came from them. */
export const SOCIAL_KEYS = ['facebook', 'twitter', 'google'];
export function domainOf(link) {
    return link.host && link.scheme ? { host: link.host, scheme: link.scheme } : null;
}
/**
 * The spec's requests set `metatitle`/`metadescription` and its answers show `title`/`description`: a
 * title set through the extension field wins, else the meta one (clients show `title`).
 */
export function shownText(link) {
    return { title: link.title || link.meta_title, description: link.description || link.meta_description };
}
export function toEntry(config, link) {
    return {
        id: link.id,
        alias: link.alias,
        shorturl: shortUrl(config, domainOf(link), link.alias),
        longurl: link.long_url,
        clicks: Number(link.clicks),
        ...shownText(link),
        date: link.created_at,
    };
}
/** Stored targets `[{location, link}]` as the detail's name → URL object. */
function targetMap(json, key) {
    let items;
    try {
        items = JSON.parse(json);
    }
    catch {
        return {};
    }
    const map = {};
    if (!Array.isArray(items))
        return map;
    for (const item of items) {
        if (typeof item?.[key] === 'string' && typeof item.link === 'string')
            map[item[key]] = item.link;
    }
    return map;
}
export function toDetail(config, link, stats) {
    return {
        error: 0,
        details: {
            id: link.id,
            shorturl: shortUrl(config, domainOf(link), link.alias),
            longurl: link.long_url,
            ...shownText(link),
            location: targetMap(link.geo_targets, 'location'),
            device: targetMap(link.device_targets, 'device'),
            expiry: link.expiry,
            date: link.created_at,
        },
        data: stats,
    };
}
//# sourceMappingURL=view.js.map