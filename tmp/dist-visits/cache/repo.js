/** The alias and branded host (null: the default domain) each of the given links is served under now. */
export async function linkAddresses(db, linkIds) {
    if (linkIds.length === 0)
        return [];
    return db.selectFrom('links').leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.alias', 'domains.host']).where('links.id', 'in', linkIds).execute();
}
/** The rotator slugs of the given campaigns (campaigns without one are left out). */
export async function campaignSlugs(db, campaignIds) {
    if (campaignIds.length === 0)
        return [];
    const rows = await db.selectFrom('campaigns').select('slug').where('id', 'in', campaignIds).where('slug', 'is not', null).execute();
    return rows.map((r) => r.slug);
}
//# sourceMappingURL=repo.js.map