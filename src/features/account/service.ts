import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { UserRow } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { CLI_ACTOR } from '../../http/actor.js';
import type { RateLimitStore } from '../../http/rate-limit.js';
import type { Account } from '../../http/types.js';
import { generateApiKey, hashApiKey, hashPassword, randomToken } from '../../infra/secrets.js';
import { nowTimestamp } from '../../lib/time.js';
import * as repo from './repo.js';
import { proveOwner } from './proof.js';
import { replaceDefaultKey } from './keys/service.js';
import type { Static } from 'typebox';
import type { AccountSchema } from './schema.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
export const MIN_PASSWORD = 8;

export type AccountView = Static<typeof AccountSchema>;

function toView(user: UserRow): AccountView {
  const gravatar = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex');
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    avatar: user.avatar || `https://www.gravatar.com/avatar/${gravatar}?d=identicon`,
    status: user.status,
    expires: user.expires ?? '',
    registered: user.created_at,
  };
}

export async function getAccount(ctx: AppContext, userId: number): Promise<AccountView> {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user) throw fail('not_found', 'User');
  return toView(user);
}

function checkEmail(email: string): string {
  const value = email.trim();
  if (!EMAIL.test(value) || value.length > 254) throw fail('email_invalid');
  return value;
}

function checkPassword(password: string): string {
  if (password.length < MIN_PASSWORD) throw fail('password_short', MIN_PASSWORD);
  return password;
}

/**
 * Ends the account's dashboard sessions but `keep` (all when null). The session feature's, handed in by the app:
 * the session feature imports this one, so this one cannot import it.
 */
export type EndSessions = (userId: number, keep: string | null) => Promise<unknown>;

/**
 * A new e-mail or password ends every session of the account but the one that made the change (none is kept when
 * an API key made it): whoever signed in with the old credentials is signed out. Answers what changed.
 */
export async function updateAccount(
  ctx: AppContext,
  caller: Account,
  input: { email?: string; password?: string; currentpassword?: string },
  endSessions: EndSessions,
  store: RateLimitStore,
): Promise<{ email: boolean; password: boolean }> {
  if (input.email === undefined && input.password === undefined) throw fail('nothing_to_update', 'an email or a password');
  const user = await repo.findUserById(ctx.db, caller.userId);
  if (!user) throw fail('not_found', 'User');
  const changes: { email?: string; password_hash?: string } = {};
  const email = input.email === undefined ? user.email : checkEmail(input.email);
  const password = input.password === undefined ? undefined : checkPassword(input.password);
  if (email !== user.email || password !== undefined) await proveOwner(store, caller, user, input.currentpassword);
  if (email !== user.email) {
    if (await repo.emailTaken(ctx.db, email, user.id)) throw fail('email_taken');
    changes.email = email;
  }
  if (password !== undefined) changes.password_hash = await hashPassword(password);
  const changed = { email: changes.email !== undefined, password: changes.password_hash !== undefined };
  if (!changed.email && !changed.password) return changed;
  try {
    await repo.updateUser(ctx.db, user.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('email_taken');
    throw error;
  }
  await endSessions(user.id, caller.session?.id ?? null);
  return changed;
}

export interface CreatedUser {
  id: number;
  email: string;
  username: string;
  apiKey: string;
}

/**
 * Registration makes the API key at once; it is shown here and never again. Without a chosen username the e-mail's
 * local part is used, with the first free suffix (`ann`, `ann-2`, …) when another account has it.
 */
export async function createUser(ctx: AppContext, input: { email: string; password?: string; username?: string }): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  if (input.username !== undefined && !USERNAME.test(input.username)) throw fail('username_invalid');
  if (await repo.emailTaken(ctx.db, email)) throw fail('email_taken');
  const apiKey = generateApiKey();
  const row = { email, password_hash: await hashPassword(checkPassword(input.password ?? randomToken(18))), created_at: nowTimestamp() };
  // A unique violation means another request took the e-mail or username meanwhile: the checks run again to say which.
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 && (await repo.emailTaken(ctx.db, email))) throw fail('email_taken');
    if (input.username !== undefined && (await repo.findUserByUsername(ctx.db, input.username))) throw fail('username_taken');
    const username = input.username ?? (await freeUsername(ctx, email));
    try {
      return { id: await repo.insertUser(ctx.db, { ...row, username }, hashApiKey(apiKey)), email, username, apiKey };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt === 3) throw fail('account_taken');
    }
  }
}

/** The e-mail's local part as a username, or with the first free suffix (`-2`, `-3`, …), within 32 characters. */
async function freeUsername(ctx: AppContext, email: string): Promise<string> {
  const base = email
    .split('@')[0]!
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .padEnd(3, '0')
    .slice(0, 32);
  const taken = await repo.usernamesLike(ctx.db, base);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const candidate = `${base.slice(0, 32 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The CLI's `key rotate`: a new full key "default" replaces the old one, which stops working at once. */
export async function rotateKey(ctx: AppContext, email: string): Promise<CreatedUser> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) throw fail('not_found', 'User');
  return { id: user.id, email: user.email, username: user.username, apiKey: await replaceDefaultKey(ctx, user.id, CLI_ACTOR) };
}

export async function deleteUserByEmail(ctx: AppContext, email: string): Promise<{ id: number; email: string }> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) throw fail('not_found', 'User');
  await repo.deleteUser(ctx.db, user.id);
  return { id: user.id, email: user.email };
}

/** The id of the account with that e-mail, for CLI commands that act for it. */
export async function userIdByEmail(ctx: AppContext, email: string): Promise<number> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) throw fail('not_found', 'User');
  return user.id;
}

export function listUsers(ctx: AppContext) {
  return repo.listUsers(ctx.db);
}

/**
 * Whether an account was ever made here (by setup, registration or the CLI), even if all are deleted since: the
 * first-account setup runs only until then.
 */
export function accountExisted(ctx: AppContext): Promise<boolean> {
  return repo.accountExisted(ctx.db);
}

/** What a sign-in checks a password against; null for an unknown e-mail. */
export async function credentialsOf(ctx: AppContext, email: string): Promise<{ id: number; email: string; passwordHash: string } | null> {
  const user = await repo.findUserByEmail(ctx.db, email);
  return user ? { id: user.id, email: user.email, passwordHash: user.password_hash } : null;
}

/** Sets an account's password by e-mail (the CLI's `user password`). */
export async function setPassword(ctx: AppContext, email: string, password: string): Promise<{ id: number; email: string }> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) throw fail('not_found', 'User');
  await repo.updateUser(ctx.db, user.id, { password_hash: await hashPassword(checkPassword(password)) });
  return { id: user.id, email: user.email };
}
