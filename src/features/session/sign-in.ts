import type { AppContext } from '../../context.js';
import type { RateLimitStore, WindowState } from '../../http/rate-limit.js';
import { throttleClient } from '../../lib/client-key.js';
import { emailKey } from '../../lib/email-key.js';
import { fail, failLater } from '../../lib/errors.js';
import { constantTimeEqual, hashPassword, randomToken, verifyPassword } from '../../infra/secrets.js';
import { accountExisted, createUser, credentialsOf } from '../account/service.js';
import { recordActivity } from '../account/activity/service.js';
import type { Actor } from '../../http/actor.js';
import * as repo from './repo.js';
import { startSession, type NewSession } from './service.js';

/**
 * Failed sign-ins allowed in a window: per client (IP, IPv6 /64) whatever the account, and per account from one
 * client; so a stranger's failures never lock the owner out of their own client. Per account from all clients
 * together, a ceiling well above that bounds how many passwords a spread-out attacker can try.
 */
export const SIGNIN_LIMITS = { client: 30, accountClient: 10, windowMs: 15 * 60_000, accountCeiling: 100, ceilingWindowMs: 60 * 60_000 };

export interface Credentials {
  email: string;
  password: string;
}

/** A rate-limit bucket of sign-in failures. */
interface Bucket {
  name: string;
  max: number;
  windowMs: number;
}

/** Verified when the e-mail is unknown, so an unknown e-mail costs what a wrong password costs. */
let dummyHash: Promise<string> | undefined;

/**
 * Each attempt is counted before the (slow) password check, so guesses sent at once cannot all pass the check
 * of the count; a right password takes its counts back. Counted through the API's rate-limit store: with
 * REDIS_URL, all nodes share the counts.
 */
export async function signIn(ctx: AppContext, store: RateLimitStore, input: Credentials, ip: string, actor: Actor): Promise<NewSession> {
  const now = Date.now();
  const counted = await countAttempt(ctx, store, input.email, throttleClient(ip), now, actor);
  const user = await credentialsOf(ctx, input.email);
  const stored = user?.passwordHash ?? (await (dummyHash ??= hashPassword(randomToken(18))));
  const right = await verifyPassword(stored, input.password);
  if (!user || !right) {
    if (user) await recordActivity(ctx, user.id, 'signin_failed', actor);
    throw fail('signin_failed');
  }
  await Promise.all(counted.map((bucket) => store.release(bucket.name, bucket.windowMs, now)));
  await recordActivity(ctx, user.id, 'signin', actor);
  return startSession(ctx, user);
}

/**
 * Counts an attempt; refuses it when a limit is passed. The account's ceiling counts only attempts its client
 * could make, so a client already refused cannot use up the account's budget with refused tries.
 */
async function countAttempt(ctx: AppContext, store: RateLimitStore, email: string, client: string, now: number, actor: Actor): Promise<Bucket[]> {
  const { windowMs } = SIGNIN_LIMITS;
  const account = emailKey(email);
  const near: Bucket[] = [
    { name: `signin:client:${client}`, max: SIGNIN_LIMITS.client, windowMs },
    { name: `signin:account-client:${account}|${client}`, max: SIGNIN_LIMITS.accountClient, windowMs },
  ];
  const ceiling: Bucket = { name: `signin:account:${account}`, max: SIGNIN_LIMITS.accountCeiling, windowMs: SIGNIN_LIMITS.ceilingWindowMs };
  const throttle = (states: WindowState[]) => failLater('signin_throttled', Math.max(...states.map((s) => Math.ceil((s.resetAt - now) / 1000)), 1));
  const states = await Promise.all(near.map((b) => store.hit(b.name, b.windowMs, now)));
  const over = states.filter((state, i) => state.count > near[i]!.max);
  if (over.length) throw throttle(over);
  const state = await store.hit(ceiling.name, ceiling.windowMs, now);
  if (state.count > ceiling.max) {
    if (state.count === ceiling.max + 1) {
      ctx.log.warn({ account }, `Sign-ins of an account stopped for the hour: ${ceiling.max} failed from all clients together`);
      const user = await credentialsOf(ctx, email);
      if (user) await recordActivity(ctx, user.id, 'signin_throttled', actor);
    }
    throw throttle([state]);
  }
  return [...near, ceiling];
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
  return { needed: !(await accountExisted(ctx)), registration: ctx.config.REGISTRATION };
}

/**
 * At start: until an account is first made, the one-time setup token (kept in the settings table, so every node
 * accepts the same one and a restart shows it again); null from then on, even once every account is deleted.
 */
export async function prepareSetup(ctx: AppContext): Promise<string | null> {
  if (await accountExisted(ctx)) {
    await repo.dropSetupToken(ctx.db);
    return null;
  }
  return repo.ensureSetupToken(ctx.db, randomToken(24));
}

/** The first account, from the setup page: the token must match (compared in constant time) and no account may ever have existed. */
export async function completeSetup(ctx: AppContext, input: Credentials & { token: string }): Promise<NewSession> {
  if (await accountExisted(ctx)) throw fail('setup_done');
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
