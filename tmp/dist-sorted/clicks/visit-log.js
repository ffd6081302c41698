import { setTimeout as sleep } from 'node:timers/promises';
import { scheduleHourly } from './retention.js';
import { FIELDS, KINDS } from './visit-columns.js';
export function visitLog(batch, labels, agents, countries, referrers) {
    return { batch, kept: new Uint32Array(batch.kinds.length), length: 0, labels, agents, countries, referrers };
}
/**
 * Hands each logged visit to `sink` by target (kind, id), each target's in arrival order, except those of
 * targets `skip` names (deleted since). In target order the inserts walk the (target_kind, target_id, id)
 * index from one end to the other instead of a random page per visit (docs/performance.md#visit-log);
 * a batch spans about a second, so ids still grow with time from batch to batch.
 */
export function eachVisit(log, skip, sink) {
    const { batch: { kinds, ids, seconds, fields, strings }, labels: { byCode } } = log;
    const kept = log.kept.subarray(0, log.length).sort((a, b) => kinds[a] - kinds[b] || ids[a] - ids[b] || a - b);
    for (let k = 0; k < kept.length; k++) {
        const i = kept[k];
        const kind = KINDS[kinds[i]];
        const id = ids[i];
        if (skip(kind, id))
            continue;
        const agent = log.agents[fields[i * FIELDS + 1]];
        const country = byCode[log.countries[fields[i * FIELDS]]].label;
        const referrer = byCode[log.referrers[fields[i * FIELDS + 2]].host].label;
        sink(kind, id, seconds[i], country, referrer, byCode[agent.browser].label, byCode[agent.os].label, agent.device, strings[fields[i * FIELDS + 3]]);
    }
}
/** The logged visits as rows, for the multi-row inserts of the Kysely writer. */
export function visitRows(log, skip) {
    const rows = [];
    if (log) {
        eachVisit(log, skip, (target_kind, target_id, at, country, referrer, browser, os, device, rule) => rows.push({ target_kind, target_id, at, country, referrer, browser, os, device, rule }));
    }
    return rows;
}
/** Rows deleted per statement: each delete is a short transaction of its own, so the click writer never waits long. */
const PRUNE_BATCH = 5_000;
const PAUSE_MS = 20;
/** The first second kept when `days` days of visits are kept. */
export const visitCutoff = (days, now = Date.now()) => Math.floor(now / 1000) - days * 86_400;
/**
 * Deletes visits served before `beforeSecond`, oldest first, `batch` rows at a time by id range: ids grow
 * with time, so each pass reads the first `batch` ids and deletes up to the last one still too old (never a
 * newer visit, even one of another node a little out of order). Returns the number of rows deleted.
 */
export async function pruneVisits(db, beforeSecond, options = {}) {
    const { batch = PRUNE_BATCH, shouldStop = () => false } = options;
    let deleted = 0;
    while (!shouldStop()) {
        const rows = await db.selectFrom('visits').select(['id', 'at']).orderBy('id').limit(batch).execute();
        let last = -1;
        for (const row of rows) {
            if (Number(row.at) >= beforeSecond)
                break;
            last = Number(row.id);
        }
        if (last < 0)
            break;
        const result = await db.deleteFrom('visits').where('id', '<=', last).executeTakeFirst();
        deleted += Number(result.numDeletedRows);
        if (rows.length < batch || last !== Number(rows[rows.length - 1].id))
            break;
        await sleep(PAUSE_MS);
    }
    return deleted;
}
/** Prunes the visit log a minute after start and then hourly (nothing when `days` is 0: nothing is logged). */
export function scheduleVisitPrune(db, days, log) {
    if (days === 0)
        return async () => { };
    return scheduleHourly((shouldStop) => pruneVisits(db, visitCutoff(days), { shouldStop }), log, 'pruning the visit log');
}
//# sourceMappingURL=visit-log.js.map