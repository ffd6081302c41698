import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { insertSettingIfAbsent, readSetting } from '../../db/settings.js';
import type { UserRow } from '../../db/types.js';
import { forgetAccountSeries } from '../../clicks/account-store.js';
import { emailKey } from '../../lib/email-key.js';
import { randomToken } from '../../infra/secrets.js';
import { defaultKeyRow, insertKey } from './keys/repo.js';
import { accountDeletion } from './ports.js';

/** The settings row that says an account was ever made (migration 0012); the first-account setup ends with it. */
const EXISTED_KEY = 'account_existed';

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The account of an e-mail in any case. The exact spelling is asked first: of accounts kept from before 0012 whose
 * e-mails differ only in case, each is found by its own spelling; any other spelling finds the holder of the key.
 */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const exact = await db.selectFrom('users').selectAll().where('email', '=', email.trim()).executeTakeFirst();
  return exact ?? db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
}

/** Whether an account other than `exceptId` has that e-mail in any case, the ones kept without a key included. */
export async function emailTaken(db: Db, email: string, exceptId = 0): Promise<boolean> {
  const key = emailKey(email);
  const holder = await db.selectFrom('users').select('id').where('email_key', '=', key).where('id', '!=', exceptId).executeTakeFirst();
  if (holder) return true;
  return (await usersWithoutEmailKey(db)).some((user) => user.id !== exceptId && emailKey(user.email) === key);
}

/** Accounts kept from before 0012 whose e-mail differed only in case from an older account's; usually none. */
export function usersWithoutEmailKey(db: Db): Promise<Array<{ id: number; email: string }>> {
  return db.selectFrom('users').select(['id', 'email']).where('email_key', 'is', null).orderBy('id').execute();
}

export function usersWithEmailKey(db: Db, key: string): Promise<Array<{ id: number; email: string }>> {
  return db.selectFrom('users').select(['id', 'email']).where('email_key', '=', key).execute();
}

/** Gives a keyless account its key if no other account holds it (the unique index decides); false when one does. */
export async function claimEmailKey(db: Db, id: number, key: string): Promise<boolean> {
  try {
    await db.updateTable('users').set({ email_key: key }).where('id', '=', id).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Whether an account was ever made here: the settings row, or (for rows written past the services) any account. */
export async function accountExisted(db: Db): Promise<boolean> {
  if ((await readSetting(db, EXISTED_KEY)) !== null) return true;
  if (!(await db.selectFrom('users').select('id').limit(1).executeTakeFirst())) return false;
  await markAccountExisted(db);
  return true;
}

async function markAccountExisted(db: Db): Promise<void> {
  await insertSettingIfAbsent(db, EXISTED_KEY, new Date().toISOString());
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Usernames that are `base` or start with `base-` (LIKE's `_` matches more; the caller compares exactly). */
export async function usernamesLike(db: Db, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select('username')
    .where((eb) => eb.or([eb('username', '=', base), eb('username', 'like', `${base.replace(/[%_\\]/g, '_')}-%`)]))
    .execute();
  return new Set(rows.map((row) => row.username));
}

/** Inserts the account and records that an account existed, in one transaction. */
/**
 * A new account with its full key "default", and the mark that an account has existed, in one transaction.
 * users.api_key_hash is retired (migration 0010): it gets a unique placeholder no key hashes to.
 */
export async function insertUser(
  db: Db,
  user: { email: string; username: string; password_hash: string; created_at: string },
  apiKeyHash: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('users')
      .values({ ...user, api_key_hash: `retired:${randomToken(16)}`, email_key: emailKey(user.email) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertKey(trx, defaultKeyRow(row.id, apiKeyHash, user.created_at));
    await markAccountExisted(trx);
    return row.id;
  });
}

/** A new e-mail takes its key with it, so the unique index guards every change. */
export async function updateUser(db: Db, id: number, changes: Partial<Pick<UserRow, 'email' | 'password_hash'>>): Promise<void> {
  const withKey = changes.email === undefined ? changes : { ...changes, email_key: emailKey(changes.email) };
  await db.updateTable('users').set(withKey).where('id', '=', id).execute();
}

export function listUsers(db: Db) {
  return db.selectFrom('users').select(['id', 'email', 'username', 'created_at']).orderBy('id').execute();
}

/** Deletes the account; its rows go by cascade, the statistics of its links and QR codes with them. */
export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const forget of accountDeletion()) await forget(trx, id);
    await forgetAccountSeries(trx, id);
    await trx.deleteFrom('users').where('id', '=', id).execute();
  });
}
