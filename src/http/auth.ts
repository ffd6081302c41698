import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { fail, failLater } from '../lib/errors.js';
import { normalizeHost } from '../lib/hosts.js';
import { constantTimeEqual } from '../lib/secrets.js';
import { rateCharger } from './rate-budget.js';
import type { RateLimitStore } from './rate-limit.js';
import type { Account, GateConfig } from './types.js';

/**
 * `Authorization: Bearer KEY`, case-insensitive scheme; `Token KEY` and a bare key are accepted from
 * older clients. Node keeps only the first Authorization header, so a second one changes nothing.
 */
export function extractApiKey(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^\s*(?:(bearer|token)\s+)?(\S+)\s*$/i.exec(header);
  return match ? match[2]! : null;
}

/** The account that owns an API key, or null; handed in by the app (the account feature owns the lookup). */
export type KeyLookup = (key: string) => Promise<Account | null>;

/** Dashboard sessions, handed in by the app (the session feature owns them). */
export interface SessionLookup {
  /** The session token in a Cookie header, or null when there is none. */
  tokenOf(cookieHeader: string | undefined): string | null;
  /** The live session's account (with `session` set), or null when the token names none. */
  accountOf(token: string): Promise<Account | null>;
}

/** Who is calling and which budget it counts against. */
interface Caller {
  account: Account | null;
  bucket: string;
  max: number;
  /** A session cookie came but names no live session. */
  deadSession: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The /api gate: finds the caller (an API key first, else a session cookie on the dashboard's host), counts the
 * request against its window (per key, per session account with its own larger budget, or per IP), sets the
 * rate-limit headers on every answer, then refuses or admits. Session requests must come from the dashboard's
 * origin, and those that change something must carry the session's X-CSRF-Token.
 */
export function apiGate(ctx: AppContext, store: RateLimitStore, accountByKey: KeyLookup, sessions: SessionLookup) {
  const windowMs = ctx.config.RATE_LIMIT_WINDOW_S * 1000;
  const onDashboard = (req: FastifyRequest) => normalizeHost(req.host) === ctx.config.DASHBOARD_HOST;
  const identify = async (req: FastifyRequest): Promise<Caller> => {
    const key = extractApiKey(req.headers.authorization);
    if (key) {
      const account = await accountByKey(key);
      if (account) return { account, bucket: `key:${account.keyHash}`, max: ctx.config.RATE_LIMIT_MAX, deadSession: false };
    }
    const token = !key && onDashboard(req) ? sessions.tokenOf(req.headers.cookie) : null;
    const account = token ? await sessions.accountOf(token) : null;
    if (account) return { account, bucket: `session:${account.userId}`, max: ctx.config.SESSION_RATE_LIMIT_MAX, deadSession: false };
    return { account: null, bucket: `ip:${req.ip}`, max: ctx.config.RATE_LIMIT_MAX, deadSession: token !== null };
  };
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const route = (req.routeOptions.config ?? {}) as GateConfig;
    if (route.dashboard && !onDashboard(req)) throw fail('endpoint_not_found');
    const caller = await identify(req);
    const now = Date.now();
    const state = await store.hit(caller.bucket, windowMs, now);
    reply.header('X-RateLimit-Limit', caller.max);
    reply.header('X-RateLimit-Remaining', Math.max(caller.max - state.count, 0));
    reply.header('X-RateLimit-Reset', Math.ceil(state.resetAt / 1000));
    if (state.count > caller.max) throw failLater('rate_limited', Math.max(Math.ceil((state.resetAt - now) / 1000), 1));
    if ((caller.account?.session || route.dashboard) && !sameOrigin(req, ctx.config.DASHBOARD_ORIGIN)) throw fail('csrf_invalid');
    req.account = caller.account;
    req.chargeUnits = rateCharger(store, caller, windowMs, reply);
    // Sign-in and setup act with no session, so a live one's token is not asked for (their Origin was checked).
    if (route.auth === 'none') return;
    const session = caller.account?.session;
    if (session && !SAFE_METHODS.has(req.method) && !constantTimeEqual(String(req.headers['x-csrf-token'] ?? ''), session.csrf)) {
      throw fail('csrf_invalid');
    }
    if (!caller.account || (route.auth === 'session' && !session)) throw fail(caller.deadSession || route.auth === 'session' ? 'session_invalid' : 'key_required');
  };
}

/** A browser names the page's origin on cross-origin requests and on every POST; none (curl, same-origin GET) is fine. */
function sameOrigin(req: FastifyRequest, origin: string): boolean {
  const sent = req.headers.origin;
  return sent === undefined || sent.toLowerCase() === origin.toLowerCase();
}
