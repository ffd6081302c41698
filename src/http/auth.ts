import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { fail } from '../lib/errors.js';
import { normalizeHost } from '../lib/hosts.js';
import { grants } from '../lib/scopes.js';
import { constantTimeEqual } from '../infra/secrets.js';
import { countRequest, rateCharger, type Budget } from './rate-budget.js';
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

/** A Cookie header with more than one session cookie: one may have been planted by another host of the domain. */
export const AMBIGUOUS_SESSION = Symbol('ambiguous session');

/** Dashboard sessions, handed in by the app (the session feature owns them). */
export interface SessionLookup {
  /** The session token in a Cookie header, null when there is none, AMBIGUOUS_SESSION when there are several. */
  tokenOf(cookieHeader: string | undefined): string | null | typeof AMBIGUOUS_SESSION;
  /** The live session's account (with `session` set), or null when the token names none. */
  accountOf(token: string): Promise<Account | null>;
  /** Set-Cookie headers that expire every session cookie a request to `path` may have carried. */
  expiredCookies(path: string): string[];
}

/** Who is calling and which budgets it counts against: its own, then (signed in) its account's over all its keys and sessions. */
interface Caller {
  account: Account | null;
  budgets: Budget[];
  /** A session cookie came but names no live session. */
  deadSession: boolean;
  /** Several session cookies came: none is taken. */
  ambiguous?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The /api gate: finds the caller (an API key first, else a session cookie on the dashboard's host), counts the
 * request against its window (per key, per session account with its own larger budget, or per IP) and a signed-in
 * caller's against its account's too (ACCOUNT_RATE_LIMIT_MAX over all its keys; sessions count there), sets the
 * rate-limit headers on every answer, then refuses or admits. Session requests must come from the dashboard's
 * origin, and those that change something must carry the session's X-CSRF-Token. An API key must hold the route's
 * scope (config.scope, see http/scopes.ts).
 */
export function apiGate(ctx: AppContext, store: RateLimitStore, accountByKey: KeyLookup, sessions: SessionLookup) {
  const windowMs = ctx.config.RATE_LIMIT_WINDOW_S * 1000;
  const onDashboard = (req: FastifyRequest) => normalizeHost(req.host) === ctx.config.DASHBOARD_HOST;
  const byIp = (req: FastifyRequest): Budget[] => [{ bucket: `ip:${req.ip}`, max: ctx.config.RATE_LIMIT_MAX }];
  // A session's requests count against its account's budget but are refused by their own only: a leaked or runaway
  // key never locks its owner out of the dashboard, where it is revoked.
  const signedIn = (account: Account, own: Budget): Caller => ({
    account,
    budgets: [own, { bucket: `account:${account.userId}`, max: account.session ? Infinity : ctx.config.ACCOUNT_RATE_LIMIT_MAX }],
    deadSession: false,
  });
  const identify = async (req: FastifyRequest): Promise<Caller> => {
    const key = extractApiKey(req.headers.authorization);
    if (key) {
      const account = await accountByKey(key);
      if (account) return signedIn(account, { bucket: `key:${account.keyHash}`, max: ctx.config.RATE_LIMIT_MAX });
    }
    const token = !key && onDashboard(req) ? sessions.tokenOf(req.headers.cookie) : null;
    if (token === AMBIGUOUS_SESSION) return { account: null, budgets: byIp(req), deadSession: false, ambiguous: true };
    const account = token ? await sessions.accountOf(token) : null;
    if (account) return signedIn(account, { bucket: `session:${account.userId}`, max: ctx.config.SESSION_RATE_LIMIT_MAX });
    return { account: null, budgets: byIp(req), deadSession: token !== null };
  };
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const route = (req.routeOptions.config ?? {}) as GateConfig;
    if (route.dashboard && !onDashboard(req)) throw fail('endpoint_not_found');
    const caller = await identify(req);
    await countRequest(store, caller.budgets, windowMs, reply);
    if ((caller.account?.session || route.dashboard) && !sameOrigin(req, ctx.config.DASHBOARD_ORIGIN)) throw fail('csrf_invalid');
    req.account = caller.account;
    // Expired on any answer, sign-in included, so the next request carries one session cookie at most.
    if (caller.ambiguous) reply.header('set-cookie', sessions.expiredCookies(req.url.split('?')[0]!));
    req.chargeUnits = rateCharger(store, caller.budgets, windowMs, reply);
    // Sign-in and setup act with no session, so a live one's token is not asked for (their Origin was checked).
    if (route.auth === 'none') return;
    const session = caller.account?.session;
    if (session && !SAFE_METHODS.has(req.method) && !constantTimeEqual(String(req.headers['x-csrf-token'] ?? ''), session.csrf)) {
      throw fail('csrf_invalid');
    }
    if (caller.ambiguous) throw fail('session_ambiguous');
    if (!caller.account || (route.auth === 'session' && !session))
      throw fail(caller.deadSession || route.auth === 'session' ? 'session_invalid' : 'key_required');
    const key = caller.account.key;
    // Sessions hold every scope; a key only those it was given.
    if (key && route.scope && route.scope !== 'any' && !grants(key.scopes, route.scope)) throw fail('scope_missing', route.scope);
  };
}

/** A browser names the page's origin on cross-origin requests and on every POST; none (curl, same-origin GET) is fine. */
function sameOrigin(req: FastifyRequest, origin: string): boolean {
  const sent = req.headers.origin;
  return sent === undefined || sent.toLowerCase() === origin.toLowerCase();
}
