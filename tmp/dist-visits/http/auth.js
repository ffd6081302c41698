import { fail } from '../lib/errors.js';
/**
 * `Authorization: Bearer KEY`, case-insensitive scheme; `Token KEY` and a bare key are accepted from
 * older clients. Node keeps only the first Authorization header, so a second one changes nothing.
 */
export function extractApiKey(header) {
    if (!header)
        return null;
    const match = /^\s*(?:(bearer|token)\s+)?(\S+)\s*$/i.exec(header);
    return match ? match[2] : null;
}
/**
 * The /api gate: counts the request against the caller's window (per key, or per IP when the key is
 * missing or wrong), sets the rate-limit headers on every answer, then refuses or admits.
 */
export function apiGate(ctx, store, accountByKey) {
    const windowMs = ctx.config.RATE_LIMIT_WINDOW_S * 1000;
    const max = ctx.config.RATE_LIMIT_MAX;
    return async (req, reply) => {
        const key = extractApiKey(req.headers.authorization);
        const account = key ? await accountByKey(key) : null;
        const bucket = account ? `key:${account.keyHash}` : `ip:${req.ip}`;
        const now = Date.now();
        const state = await store.hit(bucket, windowMs, now);
        reply.header('X-RateLimit-Limit', max);
        reply.header('X-RateLimit-Remaining', Math.max(max - state.count, 0));
        reply.header('X-RateLimit-Reset', Math.ceil(state.resetAt / 1000));
        if (state.count > max) {
            const seconds = Math.max(Math.ceil((state.resetAt - now) / 1000), 1);
            reply.header('Retry-After', seconds);
            throw fail('rate_limited', seconds);
        }
        if (!account)
            throw fail('key_required');
        req.account = account;
    };
}
//# sourceMappingURL=auth.js.map