import type { AppContext } from '../../context.js';
import type { RateLimitStore } from '../../http/rate-limit.js';
import { throttleClient } from '../../lib/client-key.js';
import { fail, failLater } from '../../lib/errors.js';
import { constantTimeEqual, hashPassword, randomToken, verifyPassword } from '../../lib/secrets.js';
import { createUser, credentialsOf, hasAccounts } from '../account/service.js';
import { recordActivity } from '../account/activity/service.js';
import type { Actor } from '../../http/actor.js';
import * as repo from './repo.js';
import { startSession, type NewSession } from './service.js';

/** Failed sign-ins allowed per account (by e-mail, known or not) and per client (IP, IPv6 /64) in a window. */
export const SIGNIN_LIMITS = { account: 10, client: 30, windowMs: 15 * 60_000 };

export interface Credentials {
  email: string;
  password: string;
}

/** Verified when the e-mail is unknown, so an unknown e-mail costs what a wrong password costs. */
let dummyHash: Promise<string> | undefined;

/**
 * Each attempt is counted before the (slow) password check, so guesses sent at once cannot all pass the check
 * of the count; a right password takes its count back. Counted through the API's rate-limit store: with
 * REDIS_URL, all nodes share the counts.
 */
export async function signIn(ctx: AppContext, store: RateLimitStore, input: Credentials, ip: string, actor: Actor): Promise<NewSession> {
  const now = Date.now();
  const buckets = [`signin:account:${input.email.trim().toLowerCase()}`, `signin:client:${throttleClient(ip)}`];
  const limits = [SIGNIN_LIMITS.account, SIGNIN_LIMITS.client];
  const states = await Promise.all(buckets.map((b) => store.hit(b, SIGNIN_LIMITS.windowMs, now)));
  const over = states.filter((state, i) => state.count > limits[i]!);
  if (over.length) throw failLater('signin_throttled', Math.max(...over.map((s) => Math.ceil((s.resetAt - now) / 1000)), 1));
  const user = await credentialsOf(ctx, input.email);
  const stored = user?.passwordHash ?? (await (dummyHash ??= hashPassword(randomToken(18))));
  const right = await verifyPassword(stored, input.password);
  if (!user || !right) {
    if (user) await recordActivity(ctx, user.id, 'signin_failed', actor);
    throw fail('signin_failed');
  }
  await Promise.all(buckets.map((b) => store.release(b, SIGNIN_LIMITS.windowMs, now)));
  await recordActivity(ctx, user.id, 'signin', actor);
  return startSession(ctx, user);
}

/** Open sign-up (REGISTRATION=open): a new account, signed in. */
export async function register(ctx: AppContext, input: Credentials): Promise<NewSession> {
  if (ctx.config.REGISTRATION !== 'open') throw fail('registration_closed');
  const user = await createUser(ctx, { email: input.email, password: input.password });
  return startSession(ctx, user);
}

export interface SetupStatus {
  needed: boolean;
  registration: 'open' | 'closed';
}

export async function setupStatus(ctx: AppContext): Promise<SetupStatus> {
  return { needed: !(await hasAccounts(ctx)), registration: ctx.config.REGISTRATION };
}

/**
 * At start: while no account exists, the one-time setup token (kept in the settings table, so every node accepts
 * the same one and a restart shows it again); null once an account exists.
 */
export async function prepareSetup(ctx: AppContext): Promise<string | null> {
  if (await hasAccounts(ctx)) {
    await repo.dropSetupToken(ctx.db);
    return null;
  }
  return repo.ensureSetupToken(ctx.db, randomToken(24));
}

/** The first account, from the setup page: the token must match (compared in constant time) and no account may exist. */
export async function completeSetup(ctx: AppContext, input: Credentials & { token: string }): Promise<NewSession> {
  if (await hasAccounts(ctx)) throw fail('setup_done');
  const token = await repo.readSetupToken(ctx.db);
  if (!token || !constantTimeEqual(token, input.token)) throw fail('setup_token_invalid');
  if (!(await repo.claimSetupToken(ctx.db, token))) throw fail('setup_done'); // another request took it
  try {
    return await startSession(ctx, await createUser(ctx, { email: input.email, password: input.password }));
  } catch (error) {
    await repo.restoreSetupToken(ctx.db, token); // bad input: the link stays valid for a second try
    throw error;
  }
}
