import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { UserRow } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { CLI_ACTOR } from '../../http/actor.js';
import { generateApiKey, hashApiKey, hashPassword, randomToken } from '../../lib/secrets.js';
import { nowTimestamp } from '../../lib/time.js';
import * as repo from './repo.js';
import * as keysRepo from './keys/repo.js';
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

export async function updateAccount(
  ctx: AppContext,
  userId: number,
  input: { email?: string; password?: string },
): Promise<void> {
  if (input.email === undefined && input.password === undefined) throw fail('nothing_to_update', 'an email or a password');
  const changes: { email?: string; password_hash?: string } = {};
  if (input.email !== undefined) changes.email = checkEmail(input.email);
  if (input.password !== undefined) changes.password_hash = await hashPassword(checkPassword(input.password));
  try {
    await repo.updateUser(ctx.db, userId, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('email_taken');
    throw error;
  }
}

export interface CreatedUser {
  id: number;
  email: string;
  username: string;
  apiKey: string;
}

/** Registration makes the API key at once; it is shown here and never again. */
export async function createUser(
  ctx: AppContext,
  input: { email: string; password?: string; username?: string },
): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const username = input.username ?? email.split('@')[0]!.replace(/[^A-Za-z0-9_.-]/g, '').padEnd(3, '0').slice(0, 32);
  if (!USERNAME.test(username)) throw fail('username_invalid');
  const password = input.password ?? randomToken(18);
  const apiKey = generateApiKey();
  if (await repo.findUserByEmail(ctx.db, email)) throw fail('email_taken');
  if (await repo.findUserByUsername(ctx.db, username)) throw fail('username_taken');
  try {
    const passwordHash = await hashPassword(checkPassword(password));
    const id = await ctx.db.transaction().execute(async (trx) => {
      const created = nowTimestamp();
      // users.api_key_hash is retired (migration 0010): a unique placeholder; the key itself goes to api_keys.
      const userId = await repo.insertUser(trx, { email, username, password_hash: passwordHash, api_key_hash: `retired:${randomToken(16)}`, created_at: created });
      await keysRepo.insertKey(trx, keysRepo.defaultKeyRow(userId, hashApiKey(apiKey), created));
      return userId;
    });
    return { id, email, username, apiKey };
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('account_taken');
    throw error;
  }
}

/** The CLI's `key rotate`: a new full key "default" replaces the old one, which stops working at once. */
export async function rotateKey(ctx: AppContext, email: string): Promise<CreatedUser> {
  const user = await repo.findUserByEmail(ctx.db, email.trim());
  if (!user) throw fail('not_found', 'User');
  return { id: user.id, email: user.email, username: user.username, apiKey: await replaceDefaultKey(ctx, user.id, CLI_ACTOR) };
}

export async function deleteUserByEmail(ctx: AppContext, email: string): Promise<{ id: number; email: string }> {
  const user = await repo.findUserByEmail(ctx.db, email.trim());
  if (!user) throw fail('not_found', 'User');
  await repo.deleteUser(ctx.db, user.id);
  return { id: user.id, email: user.email };
}

/** The id of the account with that e-mail, for CLI commands that act for it. */
export async function userIdByEmail(ctx: AppContext, email: string): Promise<number> {
  const user = await repo.findUserByEmail(ctx.db, email.trim());
  if (!user) throw fail('not_found', 'User');
  return user.id;
}

export function listUsers(ctx: AppContext) {
  return repo.listUsers(ctx.db);
}

/** Whether the installation has any account yet (the dashboard's first-account setup runs until it has). */
export function hasAccounts(ctx: AppContext): Promise<boolean> {
  return repo.anyUser(ctx.db);
}

/** What a sign-in checks a password against; null for an unknown e-mail. */
export async function credentialsOf(ctx: AppContext, email: string): Promise<{ id: number; email: string; passwordHash: string } | null> {
  const user = await repo.findUserByEmail(ctx.db, email.trim());
  return user ? { id: user.id, email: user.email, passwordHash: user.password_hash } : null;
}

/** Sets an account's password by e-mail (the CLI's `user password`). */
export async function setPassword(ctx: AppContext, email: string, password: string): Promise<{ id: number; email: string }> {
  const user = await repo.findUserByEmail(ctx.db, email.trim());
  if (!user) throw fail('not_found', 'User');
  await repo.updateUser(ctx.db, user.id, { password_hash: await hashPassword(checkPassword(password)) });
  return { id: user.id, email: user.email };
}
