import { isUniqueViolation } from '../../db/dialect.js';
import { invalidateAddress } from '../../cache/public-cache.js';
import { fail } from '../../lib/errors.js';
import { listData } from '../../lib/pagination.js';
import { ALIAS_PATTERN, isReserved } from '../../lib/reserved.js';
import { nowTimestamp } from '../../lib/time.js';
import { checkHttpUrl, optionalHttpUrl } from '../../lib/urls.js';
import * as repo from './repo.js';
import { checkName, defined } from './service.js';
/** The stored link list of a bio page, for the page renderer. */
export function bioLinks(row) {
    try {
        const parsed = JSON.parse(row.links);
        return Array.isArray(parsed) ? parsed : [];
    }
    catch {
        return [];
    }
}
const bioUrl = (ctx, alias) => `${ctx.config.BASE_URL}/${alias}`;
export async function listBios(ctx, userId, page) {
    const [total, rows] = await Promise.all([repo.countOwned(ctx.db, 'bio_pages', userId), repo.listBios(ctx.db, userId, page)]);
    return listData(page, total, rows.map((r) => ({ id: r.id, alias: r.alias, name: r.name, url: bioUrl(ctx, r.alias), date: r.created_at })));
}
function checkAlias(alias) {
    if (alias === undefined)
        return undefined;
    const trimmed = alias.trim();
    if (!ALIAS_PATTERN.test(trimmed))
        throw fail('alias_invalid', 'alias');
    if (isReserved(trimmed))
        throw fail('alias_reserved', trimmed);
    return trimmed;
}
/** Only title and url of each link are kept; every url must be http(s). */
function checkLinks(links) {
    if (links === undefined)
        return undefined;
    const checked = links.map((link, i) => {
        checkHttpUrl(link.url, `links[${i}].url`);
        return { title: link.title.trim(), url: link.url.trim() };
    });
    return JSON.stringify(checked);
}
function bioChanges(input) {
    return defined({
        alias: checkAlias(input.alias),
        name: checkName(input.name),
        description: input.description?.trim(),
        avatar: input.avatar === undefined ? undefined : optionalHttpUrl(input.avatar, 'avatar'),
        links: checkLinks(input.links),
    });
}
/** Checks the alias is free, runs the write, maps a lost race to the same 409, then drops cached copies of the addresses. */
async function saving(ctx, aliases, write) {
    if (aliases.next && aliases.next !== aliases.old && (await repo.aliasTaken(ctx.db, aliases.next, aliases.exceptId)))
        throw fail('alias_taken');
    let result;
    try {
        result = await write();
    }
    catch (error) {
        if (isUniqueViolation(error))
            throw fail('alias_taken');
        throw error;
    }
    for (const alias of new Set([aliases.old, aliases.next])) {
        if (alias)
            invalidateAddress(ctx, null, alias);
    }
    return result;
}
export async function addBio(ctx, userId, input) {
    const fields = { description: '', avatar: '', links: '[]', ...bioChanges(input) };
    const id = await saving(ctx, { next: fields.alias }, () => repo.insertBio(ctx.db, { ...fields, user_id: userId, created_at: nowTimestamp() }));
    return { id, url: bioUrl(ctx, fields.alias) };
}
export async function updateBio(ctx, userId, id, input) {
    const current = await repo.findOwnBio(ctx.db, userId, id);
    if (!current)
        throw fail('not_found', 'Bio page');
    const changes = bioChanges(input);
    await saving(ctx, { next: changes.alias, old: current.alias, exceptId: id }, () => repo.updateBio(ctx.db, id, changes));
}
export async function deleteBio(ctx, userId, id) {
    const current = await repo.findOwnBio(ctx.db, userId, id);
    if (!current)
        throw fail('not_found', 'Bio page');
    await saving(ctx, { old: current.alias }, () => repo.deleteBio(ctx.db, id));
}
//# sourceMappingURL=bio-service.js.map