import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connect.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import type { ApiKeyRow } from '../../../db/types.js';
import type { Actor } from '../../../http/actor.js';
import type { Account, ApiKeyRef } from '../../../http/types.js';
import { fail } from '../../../lib/errors.js';
import { FULL_SCOPE, grants, isScope, SCOPES, type Scope } from '../../../lib/scopes.js';
import { constantTimeEqual, generateApiKey, hashApiKey } from '../../../infra/secrets.js';
import { nowTimestamp, parseTimestamp } from '../../../lib/time.js';
import { recordActivity } from '../activity/service.js';
import * as repo from './repo.js';

const MAX_NAME = 64;
/** last_used_at is written at most this often per key, not on every request. */
const TOUCH_MS = 60_000;

export interface ApiKeyView {
  id: number;
  name: string;
  scopes: string[];
  created: string;
  lastUsed: string;
  expires: string;
}

export interface NewKeyInput {
  name: string;
  scopes: string[];
  expires?: string | null;
}

const scopesOf = (row: ApiKeyRow): string[] => JSON.parse(row.scopes) as string[];

function toView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    scopes: scopesOf(row),
    created: row.created_at,
    lastUsed: row.last_used_at ?? '',
    expires: row.expires_at ?? '',
  };
}

/** The account that owns an API key (compared in constant time) with the key's scopes, or null for an unknown or expired key. */
export async function accountByApiKey(ctx: AppContext, key: string): Promise<Account | null> {
  if (key.length > 256) return null;
  const keyHash = hashApiKey(key);
  const row = await repo.findKeyByHash(ctx.db, keyHash);
  if (!row || !constantTimeEqual(row.key_hash, keyHash)) return null;
  const now = nowTimestamp();
  if (row.expires_at !== null && row.expires_at <= now) return null;
  if (!row.last_used_at || Date.parse(`${now}Z`) - Date.parse(`${row.last_used_at}Z`) >= TOUCH_MS) await repo.touchKey(ctx.db, row.id, now);
  return { userId: row.user_id, keyHash, key: { id: row.id, name: row.name, scopes: scopesOf(row), expires: row.expires_at } };
}

export async function listApiKeys(ctx: AppContext, userId: number): Promise<ApiKeyView[]> {
  return (await repo.listKeys(ctx.db, userId)).map(toView);
}

function checkName(name: string): string {
  const value = name.trim();
  if (!value || value.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(value))
    throw fail('invalid_field', `name must be 1 to ${MAX_NAME} characters.`);
  return value;
}

/** Known scopes, each once, in catalogue order; `*` alone stands for everything. */
function checkScopes(scopes: string[]): Scope[] {
  if (scopes.length === 0) throw fail('scope_invalid', '');
  for (const scope of scopes) if (!isScope(scope)) throw fail('scope_invalid', scope.slice(0, 40));
  return scopes.includes(FULL_SCOPE) ? [FULL_SCOPE] : SCOPES.filter((s) => scopes.includes(s));
}

function checkExpiry(expires: string | null | undefined): string | null {
  if (expires === undefined || expires === null || expires === '') return null;
  const date = parseTimestamp(expires);
  if (!date || date.getTime() <= Date.now())
    throw fail('invalid_field', 'expires must be a future time written YYYY-MM-DD HH:MM:SS (UTC), or null / "" for none.');
  return expires;
}

/**
 * A key cannot hand out more than it holds: a key may create keys only with scopes it has (a full key any), and
 * a key that expires only keys that expire no later. Sessions and the CLI (no `creator`) may create any key.
 */
function checkCreator(creator: ApiKeyRef | undefined, scopes: Scope[], expires: string | null): void {
  if (!creator) return;
  const missing = scopes.find((scope) => !grants(creator.scopes, scope));
  if (missing) throw fail('scope_missing', missing);
  if (creator.expires && (expires === null || expires > creator.expires)) {
    throw fail('invalid_field', `expires: this key expires at ${creator.expires}, so the keys it makes must expire no later.`);
  }
}

/**
 * Each key has its own rate budget, so an account may hold MAX_KEYS_PER_ACCOUNT live keys at most (expired ones
 * do not count). Run in the transaction that inserts the key, with the account locked against a concurrent one.
 */
async function checkRoom(ctx: AppContext, trx: Db, userId: number): Promise<void> {
  await repo.lockAccount(trx, userId);
  const max = ctx.config.MAX_KEYS_PER_ACCOUNT;
  if ((await repo.countLiveKeys(trx, userId, nowTimestamp())) >= max) throw fail('key_limit', max);
}

/** A new key for the account; the secret is returned this once and only its hash is kept. */
export async function createApiKey(
  ctx: AppContext,
  userId: number,
  input: NewKeyInput,
  creator: ApiKeyRef | undefined,
  actor: Actor,
): Promise<{ id: number; key: string }> {
  const name = checkName(input.name);
  const scopes = checkScopes(input.scopes);
  const expires = checkExpiry(input.expires);
  checkCreator(creator, scopes, expires);
  const key = generateApiKey();
  try {
    const id = await ctx.db.transaction().execute(async (trx) => {
      await checkRoom(ctx, trx, userId);
      const row = {
        user_id: userId,
        name,
        key_hash: hashApiKey(key),
        scopes: JSON.stringify(scopes),
        created_at: nowTimestamp(),
        expires_at: expires,
      };
      return repo.insertKey(trx, row);
    });
    await recordActivity(ctx, userId, 'key_created', actor);
    return { id, key };
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('key_name_taken');
    throw error;
  }
}

/** Revokes one of the account's keys; it stops working at once (keys are read on every request). */
export async function revokeApiKey(ctx: AppContext, userId: number, id: number, actor: Actor): Promise<void> {
  if (!(await repo.deleteKey(ctx.db, userId, id))) throw fail('not_found', 'API key');
  await recordActivity(ctx, userId, 'key_revoked', actor);
}

/**
 * Replaces the account's key "default" with a new full key of that name (made if it was revoked); other keys stay.
 * The old one stops working at once. The new secret is returned this once.
 */
export async function replaceDefaultKey(ctx: AppContext, userId: number, actor: Actor): Promise<string> {
  const key = generateApiKey();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteKeyNamed(trx, userId, repo.DEFAULT_KEY);
    await checkRoom(ctx, trx, userId);
    await repo.insertKey(trx, repo.defaultKeyRow(userId, hashApiKey(key), nowTimestamp()));
  });
  await recordActivity(ctx, userId, 'key_created', actor);
  return key;
}
