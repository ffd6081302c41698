import { BoundedCache } from '../../../lib/bounded-cache.js';
import { constantTimeEqual, hmac } from '../../../lib/secrets.js';
export const UNLOCK_SECONDS = 24 * 60 * 60;
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const cookieName = (link) => `rdpw${link.id}`;
/**
 * The signature covers the link id, the expiry and the stored password hash, so a cookie opens one
 * link for one day and stops working as soon as the password is changed.
 */
function signature(secret, link, expires) {
    return hmac(secret, `unlock.${link.id}.${expires}.${link.passwordHash ?? ''}`);
}
/** Set-Cookie value proving the visitor typed the password; scoped to the link's path. */
export function unlockCookie(secret, link, now) {
    const expires = Math.floor(now / 1000) + UNLOCK_SECONDS;
    const value = `${expires}.${signature(secret, link, expires)}`;
    const path = `/${encodeURIComponent(link.alias)}`;
    return `${cookieName(link)}=${value}; Max-Age=${UNLOCK_SECONDS}; Path=${path}; HttpOnly; SameSite=Lax${link.secure ? '; Secure' : ''}`;
}
export function isUnlocked(secret, link, cookieHeader, now) {
    const value = cookieValue(cookieHeader, cookieName(link));
    if (!value)
        return false;
    const dot = value.indexOf('.');
    const expires = Number(value.slice(0, dot));
    if (dot < 1 || !Number.isInteger(expires) || expires * 1000 <= now)
        return false;
    return constantTimeEqual(value.slice(dot + 1), signature(secret, link, expires));
}
function cookieValue(header, name) {
    if (!header)
        return null;
    for (const part of header.split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0 && part.slice(0, eq).trim() === name)
            return part.slice(eq + 1).trim();
    }
    return null;
}
/**
 * Whom the throttle counts: an IPv4 address, or the /64 network of an IPv6 address — one subscriber gets a
 * whole /64 and could otherwise try five passwords from each of its addresses.
 */
export function throttleClient(ip) {
    const address = ip.trim().toLowerCase().split('%')[0];
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
    if (mapped)
        return mapped[1];
    if (!address.includes(':'))
        return address;
    const [head = '', tail] = address.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = tail === undefined ? left : [...left, ...Array(Math.max(8 - left.length - right.length, 0)).fill('0'), ...right];
    const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16));
    return prefix.length === 4 && prefix.every((n) => n >= 0 && n <= 0xffff) ? `${prefix.map((n) => n.toString(16)).join(':')}::/64` : address;
}
/**
 * Failed password attempts per link and client IP, in memory: after MAX_FAILURES within the window the
 * form answers 429 until the window ends. Bounded: past `capacity`, the least recently failed go first.
 */
export class FailureThrottle {
    counters;
    constructor(capacity = 100_000) {
        this.counters = new BoundedCache(capacity);
    }
    /** Seconds until the client may try again; 0 when it may try now. */
    blockedFor(key, now) {
        const counter = this.counters.get(key);
        if (!counter)
            return 0;
        if (counter.resetAt <= now) {
            this.counters.delete(key);
            return 0;
        }
        return counter.failures >= MAX_FAILURES ? Math.ceil((counter.resetAt - now) / 1000) : 0;
    }
    fail(key, now) {
        const counter = this.counters.get(key);
        if (counter && counter.resetAt > now) {
            counter.failures++;
            return;
        }
        this.counters.set(key, { failures: 1, resetAt: now + FAILURE_WINDOW_MS });
    }
    succeed(key) {
        this.counters.delete(key);
    }
}
//# sourceMappingURL=password.js.map