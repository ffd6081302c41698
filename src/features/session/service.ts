import type { AppContext } from '../../context.js';
import type { SessionRow } from '../../db/types.js';
import { AMBIGUOUS_SESSION, type SessionLookup } from '../../http/auth.js';
import type { Account } from '../../http/types.js';
import { cookieValues } from '../../lib/cookies.js';
import { fail } from '../../lib/errors.js';
import { constantTimeEqual, hashApiKey, randomToken } from '../../infra/secrets.js';
import { getAccount } from '../account/service.js';
import { expiredSessionCookies, sessionCookieName } from './cookie.js';
import * as repo from './repo.js';

/** What the dashboard learns about its session (GET /api/session); `csrf` goes back in X-CSRF-Token. */
export interface SessionView {
  email: string;
  csrf: string;
  /** The absolute end (SESSION_MAX_DAYS after sign-in), ISO 8601. */
  expiresAt: string;
  /** The end if no request comes before it (SESSION_IDLE_MINUTES after the last one), ISO 8601. */
  idleExpiresAt: string;
}

/** A new session: the token goes into the cookie and is never stored, only its hash. */
export interface NewSession {
  token: string;
  maxAgeS: number;
  view: SessionView;
}

/** Longest a token can be; anything longer is no token of ours and is not hashed. */
const MAX_TOKEN = 128;
const MINUTE_MS = 60_000;

const idleMs = (ctx: AppContext) => ctx.config.SESSION_IDLE_MINUTES * MINUTE_MS;
const maxMs = (ctx: AppContext) => ctx.config.SESSION_MAX_DAYS * 24 * 60 * MINUTE_MS;
/** last_seen_at is written at most once a minute (more often only when the idle limit is shorter than 4 minutes). */
const touchMs = (ctx: AppContext) => Math.min(MINUTE_MS, idleMs(ctx) / 4);
const iso = (ms: number) => new Date(ms).toISOString();

/** Whether the dashboard is https: its session cookie is then `__Host-` prefixed (cookie.ts). */
export const secureDashboard = (ctx: AppContext) => ctx.config.DASHBOARD_ORIGIN.startsWith('https:');
export const dashboardHostname = (ctx: AppContext) => new URL(ctx.config.DASHBOARD_ORIGIN).hostname;

/**
 * The session token of a Cookie header. Two or more session cookies are never guessed between: the first one sent is
 * the most specific path's, and one planted with Domain= by a parent or sibling host (http only) would come first.
 */
export function sessionTokenOf(secure: boolean, cookieHeader: string | undefined): string | null | typeof AMBIGUOUS_SESSION {
  const tokens = cookieValues(cookieHeader, sessionCookieName(secure));
  if (tokens.length > 1) return AMBIGUOUS_SESSION;
  const token = tokens[0];
  return token && token.length <= MAX_TOKEN ? token : null;
}

/** The /api gate's view of dashboard sessions. */
export function sessionLookup(ctx: AppContext): SessionLookup {
  const secure = secureDashboard(ctx);
  const hostname = dashboardHostname(ctx);
  return {
    tokenOf: (cookieHeader) => sessionTokenOf(secure, cookieHeader),
    accountOf: (token) => accountBySession(ctx, token),
    expiredCookies: (path) => expiredSessionCookies(secure, hostname, path),
  };
}

/** Signs an account in: a new session row, ended sessions of the account swept on the way. */
export async function startSession(ctx: AppContext, user: { id: number; email: string }): Promise<NewSession> {
  const now = Date.now();
  const token = randomToken(32);
  const row: SessionRow = {
    token_hash: hashApiKey(token),
    user_id: user.id,
    csrf: randomToken(24),
    created_at: iso(now),
    last_seen_at: iso(now),
    expires_at: iso(now + maxMs(ctx)),
  };
  await repo.deleteEndedSessions(ctx.db, user.id, iso(now), iso(now - idleMs(ctx)));
  await repo.insertSession(ctx.db, row);
  return { token, maxAgeS: maxMs(ctx) / 1000, view: viewOf(ctx, row, user.email) };
}

/** The live session a token names, or null; an ended one is deleted on the way. Read every time, so a sign-out on any node counts at once (docs/performance.md#session-no-cache). */
async function liveSession(ctx: AppContext, token: string, now: number): Promise<SessionRow | null> {
  const hash = hashApiKey(token);
  const row = await repo.findSession(ctx.db, hash);
  if (!row || !constantTimeEqual(row.token_hash, hash)) return null;
  const lastSeen = Date.parse(row.last_seen_at);
  if (now >= Date.parse(row.expires_at) || now >= lastSeen + idleMs(ctx)) {
    await repo.deleteSession(ctx.db, hash);
    return null;
  }
  if (now - lastSeen >= touchMs(ctx)) {
    row.last_seen_at = iso(now);
    await repo.touchSession(ctx.db, hash, row.last_seen_at);
  }
  return row;
}

/** The /api gate's session lookup: the account of a live session, with the session's id and CSRF token. */
export async function accountBySession(ctx: AppContext, token: string): Promise<Account | null> {
  const row = await liveSession(ctx, token, Date.now());
  return row ? { userId: row.user_id, session: { id: row.token_hash, csrf: row.csrf } } : null;
}

export async function describeSession(ctx: AppContext, sessionId: string): Promise<SessionView> {
  const row = await repo.findSession(ctx.db, sessionId);
  if (!row) throw fail('session_invalid');
  return viewOf(ctx, row, (await getAccount(ctx, row.user_id)).email);
}

function viewOf(ctx: AppContext, row: SessionRow, email: string): SessionView {
  const absolute = Date.parse(row.expires_at);
  return {
    email,
    csrf: row.csrf,
    expiresAt: row.expires_at,
    idleExpiresAt: iso(Math.min(absolute, Date.parse(row.last_seen_at) + idleMs(ctx))),
  };
}

export function endSession(ctx: AppContext, sessionId: string): Promise<void> {
  return repo.deleteSession(ctx.db, sessionId);
}

/** Sign out everywhere: every session of the account, on every node, ends now. */
export async function endAllSessions(ctx: AppContext, userId: number): Promise<{ revoked: number }> {
  return { revoked: await repo.deleteUserSessions(ctx.db, userId) };
}

/** After a password or e-mail change: every session of the account ends but `keep`, the one that made it (all when null). */
export async function endOtherSessions(ctx: AppContext, userId: number, keep: string | null): Promise<{ revoked: number }> {
  return { revoked: await repo.deleteUserSessions(ctx.db, userId, keep) };
}
