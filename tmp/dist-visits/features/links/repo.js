import { sql } from 'kysely';
import { nowTimestamp } from '../../lib/time.js';
import { clickCount, forgetTargets } from '../../clicks/store.js';
function withDomain(db) {
    return db.selectFrom('links').leftJoin('domains', 'domains.id', 'links.domain_id')
        .selectAll('links').select(['domains.host', 'domains.scheme']).select(clickCount('link', 'links.id').as('clicks'));
}
export function findLink(db, userId, id) {
    return withDomain(db).where('links.id', '=', id).where('links.user_id', '=', userId).executeTakeFirst();
}
/** Case-insensitive search in alias, long URL, title and meta title; LIKE wildcards in the term are literal. */
function matches(q) {
    const term = q?.trim().toLowerCase();
    return (eb) => {
        if (!term)
            return eb.lit(true);
        const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const like = (column) => sql `lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
        return eb.or([like('links.alias'), like('links.long_url'), like('links.title'), like('links.meta_title')]);
    };
}
export function listLinks(db, userId, page, order, q) {
    let query = withDomain(db).where('links.user_id', '=', userId).where(matches(q));
    if (order === 'click')
        query = query.orderBy('clicks', 'desc');
    return query.orderBy('links.id', 'desc').limit(page.limit).offset(page.offset).execute();
}
export async function countLinks(db, userId, q) {
    const row = await db.selectFrom('links').select((eb) => eb.fn.countAll().as('n'))
        .where('links.user_id', '=', userId).where(matches(q)).executeTakeFirstOrThrow();
    return Number(row.n);
}
/** True when another link (any account) already has the alias on that domain. */
export async function aliasInUse(db, domainId, alias, exceptId = 0) {
    const row = await db.selectFrom('links').select('id')
        .where('domain_id', '=', domainId).where('alias', '=', alias).where('id', '!=', exceptId).executeTakeFirst();
    return row !== undefined;
}
export async function bioAliasInUse(db, alias) {
    return (await db.selectFrom('bio_pages').select('id').where('alias', '=', alias).executeTakeFirst()) !== undefined;
}
/** Whether the account owns row `id` of a table with id and user_id columns. */
export async function ownsRow(db, table, userId, id) {
    // The cast only narrows Kysely's typing: every OwnedTable has id and user_id.
    const row = await db.selectFrom(table).select('id')
        .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
}
export async function insertLink(db, row) {
    const inserted = await db.insertInto('links').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
}
export async function updateLink(db, id, changes) {
    await db.updateTable('links').set({ ...changes, updated_at: nowTimestamp() }).where('id', '=', id).execute();
}
/** Adds the link to a channel; already there is fine. */
export async function addToChannel(db, channelId, linkId) {
    await db.insertInto('channel_items')
        .values({ channel_id: channelId, item_type: 'links', item_id: linkId, created_at: nowTimestamp() })
        .onConflict((oc) => oc.columns(['channel_id', 'item_type', 'item_id']).doNothing())
        .execute();
}
/** Removes the link with its channel entries, pixel assignments and statistics, in one transaction. */
export async function deleteLink(db, userId, id) {
    await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('channel_items').where('item_type', '=', 'links').where('item_id', '=', id).execute();
        await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute();
        await trx.deleteFrom('links').where('id', '=', id).execute();
        await forgetTargets(trx, 'link', [id], userId);
    });
}
//# sourceMappingURL=repo.js.map