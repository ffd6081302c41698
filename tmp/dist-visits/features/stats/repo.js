/** The target's counters and bounded-dimension labels; zeros when it has none. */
export async function readSummary(db, kind, id) {
    const row = await db.selectFrom('click_summaries').select(['clicks', 'uniques', 'labels'])
        .where('target_kind', '=', kind).where('target_id', '=', id).executeTakeFirst();
    if (!row)
        return { clicks: 0, uniques: 0, labels: {} };
    return { clicks: Number(row.clicks), uniques: Number(row.uniques), labels: parseLabels(row.labels) };
}
function parseLabels(text) {
    try {
        const value = JSON.parse(text);
        return value && typeof value === 'object' ? value : {};
    }
    catch {
        return {};
    }
}
/** Most frequent referrers first (ties by host); a range of the primary key, sorted (a target's referrers are few). */
export async function topReferrers(db, kind, id, limit) {
    const rows = await db.selectFrom('click_stats').select(['label', 'count'])
        .where('target_kind', '=', kind).where('target_id', '=', id).where('dimension', '=', 'referrer')
        .orderBy('count', 'desc').orderBy('label').limit(limit).execute();
    return rows.map((row) => ({ label: row.label, count: Number(row.count) }));
}
//# sourceMappingURL=repo.js.map