import type { Db } from '../../db/connect.js';
import { deleteSetting, insertSettingIfAbsent, readSetting } from '../../db/settings.js';
import type { SessionRow } from '../../db/types.js';

export function insertSession(db: Db, row: SessionRow): Promise<unknown> {
  return db.insertInto('sessions').values(row).execute();
}

export function findSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function touchSession(db: Db, tokenHash: string, lastSeenAt: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Deletes the account's sessions, all but `keep` when it names one. */
export async function deleteUserSessions(db: Db, userId: number, keep: string | null = null): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== null) query = query.where('token_hash', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An account's sessions that ended (absolutely, or idle since before `idleCutoff`); run at each sign-in. */
export async function deleteEndedSessions(db: Db, userId: number, now: string, idleCutoff: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleCutoff)]))
    .execute();
}

const SETUP_KEY = 'setup_token';

/** The pending first-account setup token, made once (insert-if-absent, so racing nodes agree). */
export async function ensureSetupToken(db: Db, candidate: string): Promise<string> {
  await insertSettingIfAbsent(db, SETUP_KEY, candidate);
  return (await readSetupToken(db)) ?? candidate;
}

export async function readSetupToken(db: Db): Promise<string | null> {
  return readSetting(db, SETUP_KEY);
}

/** Takes the token if it is still `token`: of requests racing with the right token, one wins. */
export async function claimSetupToken(db: Db, token: string): Promise<boolean> {
  return deleteSetting(db, SETUP_KEY, token);
}

export async function restoreSetupToken(db: Db, token: string): Promise<void> {
  await ensureSetupToken(db, token);
}

export async function dropSetupToken(db: Db): Promise<void> {
  await deleteSetting(db, SETUP_KEY);
}
