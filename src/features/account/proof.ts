import type { UserRow } from '../../db/types.js';
import type { RateLimitStore } from '../../http/rate-limit.js';
import type { Account } from '../../http/types.js';
import { verifyPassword } from '../../infra/secrets.js';
import { fail, failLater } from '../../lib/errors.js';
import { FULL_SCOPE } from '../../lib/scopes.js';

/** Wrong current passwords an account may send in a window: a stolen session cannot guess the password at the API's pace. */
export const PROOF_LIMIT = { max: 10, windowMs: 15 * 60_000 };

/**
 * New credentials take the account over for good (a sign-in then mints any key), so the caller proves it holds it
 * already: an API key must be full (`*`) and never expire, a dashboard session must send the current password.
 * A guess is counted before the (slow) check, as a sign-in is, and a right one takes its count back.
 */
export async function proveOwner(store: RateLimitStore, caller: Account, user: UserRow, current: string | undefined): Promise<void> {
  if (caller.key) {
    if (!caller.key.scopes.includes(FULL_SCOPE) || caller.key.expires !== null) throw fail('full_key_required');
    return;
  }
  if (!caller.session) return;
  if (!current) throw fail('current_password_wrong');
  const bucket = `password-proof:${user.id}`;
  const now = Date.now();
  const state = await store.hit(bucket, PROOF_LIMIT.windowMs, now);
  if (state.count > PROOF_LIMIT.max) throw failLater('signin_throttled', Math.max(Math.ceil((state.resetAt - now) / 1000), 1));
  if (!(await verifyPassword(user.password_hash, current))) throw fail('current_password_wrong');
  await store.release(bucket, PROOF_LIMIT.windowMs, now);
}
