import { sql, type Kysely } from 'kysely';

/**
 * Each visit pack names the account that owns its link or QR code (`owner`), indexed by (owner, at, id):
 * an account's export and latest visits read its own packs in the range asked instead of walking the whole
 * log by id (docs/decisions/0014-visit-packs-by-owner.md). Existing packs take their target's owner; those
 * whose target is gone keep none and are read by no account, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('visit_packs').addColumn('owner', 'integer').execute();
  await fillOwners(db);
  await db.schema.createIndex('visit_packs_owner').on('visit_packs').columns(['owner', 'at', 'id']).execute();
}

/** Gives each pack without an owner its link's or QR code's (exported for tests/visits-bounds.test.ts). */
export async function fillOwners(db: Kysely<unknown>): Promise<void> {
  await sql`update visit_packs set owner = (select user_id from links where links.id = visit_packs.target_id)
    where target_kind = 'link' and owner is null`.execute(db);
  await sql`update visit_packs set owner = (select user_id from qr_codes where qr_codes.id = visit_packs.target_id)
    where target_kind = 'qr' and owner is null`.execute(db);
}
