import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { isPostgres } from '../db/dialect.js';
import type { CountedKind, TargetKind } from '../db/types.js';
import { nowTimestamp } from '../lib/time.js';
import { subtractFromAccount } from './account-store.js';
import { MAX_VARIABLES } from './store.js';

// Deleting targets' clicks: a delete and a click batch never overlap, deletions are remembered so clicks
// still queued for a deleted target are dropped, and a target's rows and visit packs go with it.

/** Advisory lock class of click batches against deletes ('RDIC'); the second key is the schema. */
const CLICK_LOCK_CLASS = 0x52444943;

/**
 * PostgreSQL: a click batch (shared) and a delete of targets (exclusive) never overlap, so a batch in
 * flight finishes before the delete removes its rows, and a batch after the delete sees its tombstones.
 * On SQLite every write transaction holds the database lock already (BEGIN IMMEDIATE).
 */
export async function lockAgainst(db: Db, other: 'deletes' | 'click batches'): Promise<void> {
  if (!isPostgres(db)) return;
  const lock = sql.raw(other === 'deletes' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock');
  await sql`select ${lock}(${CLICK_LOCK_CLASS}::int4, hashtext(current_schema()))`.execute(db);
}

/**
 * The deleted target whose tombstone covers what a click counts: a split variant (`variant:<n>`, counted with
 * its link's id) goes with its link, so a link's delete drops its variants' queued visits without a
 * tombstone per variant (a link may have changed its split since).
 */
export function tombstoneKind(kind: CountedKind): TargetKind {
  return kind === 'link' || kind === 'qr' ? kind : 'link';
}

/** Which of the given ids were deleted lately, so clicks still queued for them are dropped. */
export async function deletedTargets(db: Db, kind: TargetKind, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += MAX_VARIABLES) {
    const rows = await db
      .selectFrom('deleted_targets')
      .select('target_id')
      .where('target_kind', '=', kind)
      .where('target_id', 'in', ids.slice(i, i + MAX_VARIABLES))
      .execute();
    for (const row of rows) found.add(Number(row.target_id));
  }
  return found;
}

/** Forgets deletions older than `before`: no click waits that long between its visit and its write. */
export async function pruneDeletedTargets(db: Db, before: string): Promise<void> {
  await db.deleteFrom('deleted_targets').where('deleted_at', '<', before).execute();
}

/** Deletes every visit pack of the targets, walking each one's chain from its summary row (which must still be there). */
async function forgetVisits(db: Db, kind: TargetKind, ids: number[]): Promise<void> {
  await sql`with recursive chain(id) as (
      select visit_pack from click_summaries where target_kind = ${kind} and target_id in (${sql.join(ids)}) and visit_pack is not null
      union all select p.prev from visit_packs p join chain c on p.id = c.id where p.prev is not null)
    delete from visit_packs where id in (select id from chain)`.execute(db);
}

/**
 * Forgets every click of the targets (and takes them out of `owner`'s series; null when the account goes
 * too) and remembers them as deleted, so visits still queued on any node
 * (served just before the delete) are dropped when written rather than recreating their rows. For the
 * features that delete links, QR codes or accounts, inside their transaction (the lock lasts until it ends).
 */
export async function forgetTargets(db: Db, kind: TargetKind, ids: number[], owner: number | null): Promise<void> {
  if (ids.length === 0) return;
  await lockAgainst(db, 'click batches');
  const deleted_at = nowTimestamp();
  for (let i = 0; i < ids.length; i += MAX_VARIABLES) {
    const chunk = ids.slice(i, i + MAX_VARIABLES);
    if (owner !== null) await subtractFromAccount(db, owner, kind, chunk);
    await db
      .insertInto('deleted_targets')
      .values(chunk.map((target_id) => ({ target_kind: kind, target_id, deleted_at })))
      .onConflict((oc) => oc.columns(['target_kind', 'target_id']).doUpdateSet({ deleted_at }))
      .execute();
    await forgetVisits(db, kind, chunk);
    for (const table of ['click_stats', 'click_summaries', 'click_uniques', 'click_hours', 'click_days'] as const) {
      await db.deleteFrom(table).where('target_kind', '=', kind).where('target_id', 'in', chunk).execute();
    }
    // A link's split variants are counted under kinds of their own, in hours and days only (src/clicks/batch-rows.ts#isVariant).
    if (kind === 'link') {
      for (const table of ['click_hours', 'click_days'] as const) {
        await db
          .deleteFrom(table)
          .where(sql<boolean>`target_kind like 'variant:%'`)
          .where('target_id', 'in', chunk)
          .execute();
      }
    }
  }
}
