import { cookieValue } from '../../../lib/cookies.js';
import { constantTimeEqual, hmac } from '../../../infra/secrets.js';

export const UNLOCK_SECONDS = 24 * 60 * 60;

interface Lockable {
  id: number;
  alias: string;
  secure: boolean;
  passwordHash: string | null;
}

const cookieName = (link: Lockable) => `rdpw${link.id}`;

/**
 * The signature covers the link id, the expiry and the stored password hash, so a cookie opens one
 * link for one day and stops working as soon as the password is changed.
 */
function signature(secret: string, link: Lockable, expires: number): string {
  return hmac(secret, `unlock.${link.id}.${expires}.${link.passwordHash ?? ''}`);
}

/** Set-Cookie value proving the visitor typed the password; scoped to the link's path. */
export function unlockCookie(secret: string, link: Lockable, now: number): string {
  const expires = Math.floor(now / 1000) + UNLOCK_SECONDS;
  const value = `${expires}.${signature(secret, link, expires)}`;
  const path = `/${encodeURIComponent(link.alias)}`;
  return `${cookieName(link)}=${value}; Max-Age=${UNLOCK_SECONDS}; Path=${path}; HttpOnly; SameSite=Lax${link.secure ? '; Secure' : ''}`;
}

export function isUnlocked(secret: string, link: Lockable, cookieHeader: string | undefined, now: number): boolean {
  const value = cookieValue(cookieHeader, cookieName(link));
  if (!value) return false;
  const dot = value.indexOf('.');
  const expires = Number(value.slice(0, dot));
  if (dot < 1 || !Number.isInteger(expires) || expires * 1000 <= now) return false;
  return constantTimeEqual(value.slice(dot + 1), signature(secret, link, expires));
}
