import { sql } from 'kysely';
import { normalizeHost } from '../../lib/hosts.js';
/**
 * Branded domains were stored as the URL parser spelled them, lower-cased: a final dot
 * (`a-brand.test.`) and the other scheme's standard port (`http://a-brand.test:443`) were kept, so one
 * host could be held twice, by two accounts. Each row now gets the canonical spelling of lib/hosts.ts,
 * which the domain API and the public Host lookup both use. When the canonical spelling is already
 * held, the row holding it keeps it (it is the one visits reached; else the oldest row takes it) and the other keeps its old
 * spelling, which no lookup matches any more (the unique constraint on domains.host stays as it was).
 */
export async function up(db) {
    const { rows } = await sql `select id, host from domains order by id`.execute(db);
    const taken = new Set(rows.map((row) => row.host));
    for (const row of rows) {
        const canonical = normalizeHost(row.host);
        if (!canonical || canonical === row.host || taken.has(canonical))
            continue;
        await sql `update domains set host = ${canonical} where id = ${row.id}`.execute(db);
        taken.delete(row.host);
        taken.add(canonical);
    }
}
export async function down() {
    throw new Error('Redirectory migrations are forward-only.');
}
//# sourceMappingURL=0005-canonical-domain-hosts.js.map