import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { findAccountByKeyHash } from '../features/account/repo.js';
import { AuthError } from '../lib/errors.js';
import { constantTimeEqual, hashApiKey } from '../lib/secrets.js';
import type { RateLimitStore } from './rate-limit.js';
import type { Account } from './types.js';

/**
 * `Authorization: Bearer KEY`, case-insensitive scheme; `Token KEY` and a bare key are accepted from
 * older clients. Node keeps only the first Authorization header, so a second one changes nothing.
 */
export function extractApiKey(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^\s*(?:(bearer|token)\s+)?(\S+)\s*$/i.exec(header);
  return match ? match[2]! : null;
}

export async function resolveAccount(ctx: AppContext, header: string | undefined): Promise<Account | null> {
  const key = extractApiKey(header);
  if (!key || key.length > 256) return null;
  const keyHash = hashApiKey(key);
  const row = await findAccountByKeyHash(ctx.db, keyHash);
  if (!row || !constantTimeEqual(row.api_key_hash, keyHash)) return null;
  return { userId: row.id, keyHash };
}

/**
 * The /api gate: counts the request against the caller's window (per key, or per IP when the key is
 * missing or wrong), sets the rate-limit headers on every answer, then refuses or admits.
 */
export function apiGate(ctx: AppContext, store: RateLimitStore) {
  const windowMs = ctx.config.RATE_LIMIT_WINDOW_S * 1000;
  const max = ctx.config.RATE_LIMIT_MAX;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const account = await resolveAccount(ctx, req.headers.authorization);
    const bucket = account ? `key:${account.keyHash}` : `ip:${req.ip}`;
    const now = Date.now();
    const state = await store.hit(bucket, windowMs, now);
    reply.header('X-RateLimit-Limit', max);
    reply.header('X-RateLimit-Remaining', Math.max(max - state.count, 0));
    reply.header('X-RateLimit-Reset', Math.ceil(state.resetAt / 1000));
    if (state.count > max) {
      const seconds = Math.max(Math.ceil((state.resetAt - now) / 1000), 1);
      reply.header('Retry-After', seconds);
      throw AuthError.rateLimited(seconds);
    }
    if (!account) throw AuthError.keyRequired();
    req.account = account;
  };
}
