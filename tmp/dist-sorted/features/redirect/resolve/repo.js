import { andThen } from '../../../lib/maybe-promise.js';
/**
 * Runs a Kysely-built query on the redirect path. On SQLite the compiled SQL becomes one prepared
 * statement of the raw connection, answered synchronously (Kysely's per-call compile and connection
 * queue cost more than the lookup itself); on PostgreSQL it goes through Kysely as usual. `sample` must
 * hold distinct values: they map the compiled placeholders back to argument positions.
 */
function prepare(handle, query, sample) {
    const { sqlite } = handle;
    if (!sqlite)
        return (...args) => query(handle.db, ...args).execute();
    const compiled = query(handle.db, ...sample).compile();
    const positions = compiled.parameters.map((p) => {
        const index = sample.indexOf(p);
        if (index < 0)
            throw new Error(`redirect query parameter ${String(p)} is not an argument`);
        return index;
    });
    let statement = null;
    let toRow = null;
    return (...args) => {
        if (!statement) {
            statement = sqlite.prepare(compiled.sql).raw(true);
            toRow = rowMaker(statement.columns().map((c) => c.name));
        }
        return statement.all(...positions.map((i) => args[i])).map(toRow);
    };
}
/** Rows as arrays, made into objects here: cheaper than better-sqlite3's own row objects (docs/performance.md#rows-as-arrays). */
function rowMaker(names) {
    return (values) => {
        const row = {};
        for (let i = 0; i < names.length; i++)
            row[names[i]] = values[i];
        return row;
    };
}
const linkQuery = (db, domainId, alias) => db.selectFrom('links')
    .select([
    'id', 'user_id', 'alias', 'long_url', 'title', 'description', 'type', 'splash_id', 'overlay_id', 'password_hash',
    'expiry', 'geo_targets', 'device_targets', 'language_targets', 'parameters', 'meta_title', 'meta_description', 'meta_image',
])
    .select((eb) => eb.exists(eb.selectFrom('link_pixels').select('pixel_id').whereRef('link_pixels.link_id', '=', 'links.id')).as('has_pixels'))
    .where('domain_id', '=', domainId).where('alias', '=', alias);
const domainQuery = (db, host) => db.selectFrom('domains')
    .select(['id', 'user_id', 'host', 'scheme', 'redirect_root', 'redirect_404']).where('host', '=', host);
const pixelsQuery = (db, linkId) => db.selectFrom('link_pixels')
    .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
    .select(['pixels.id', 'pixels.type', 'pixels.tag']).where('link_pixels.link_id', '=', linkId).orderBy('pixels.id');
const first = (run) => (...args) => andThen(run(...args), (rows) => rows[0]);
/** The reads of every cache miss, prepared once per process (splash, overlay and bio pages come from the pages feature). */
export function publicRepo(handle) {
    return {
        link: first(prepare(handle, linkQuery, [-7001, '\u0000alias'])),
        domain: first(prepare(handle, domainQuery, ['\u0000host'])),
        pixels: prepare(handle, pixelsQuery, [-7002]),
    };
}
//# sourceMappingURL=repo.js.map