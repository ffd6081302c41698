import type { Db } from './connect.js';

/**
 * The settings table's one owner: installation-wide key/value rows (the secret, the setup token, whether an
 * account ever existed). Start-up, account and session each keep a key here and reach it only through these.
 */

export async function readSetting(db: Db, key: string): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** Insert-if-absent, so racing nodes agree on the first value written. */
export async function insertSettingIfAbsent(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Removes the key (only while it holds `value`, when given); true when a row went. */
export async function deleteSetting(db: Db, key: string, value?: string): Promise<boolean> {
  let query = db.deleteFrom('settings').where('key', '=', key);
  if (value !== undefined) query = query.where('value', '=', value);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
