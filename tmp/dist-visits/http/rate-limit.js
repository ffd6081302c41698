import { cacheKeys } from '../lib/cache-keys.js';
export class MemoryRateLimitStore {
    windows = new Map();
    sweptAt = 0;
    async hit(bucket, windowMs, now) {
        return this.count(bucket, windowMs, now);
    }
    /** `hit` without the promise, for callers that must decide synchronously (the public POST budget). */
    count(bucket, windowMs, now) {
        const start = Math.floor(now / windowMs) * windowMs;
        const key = cacheKeys.rateLimit(bucket, start);
        let state = this.windows.get(key);
        if (!state) {
            state = { count: 0, resetAt: start + windowMs };
            this.windows.set(key, state);
            this.sweep(now, windowMs);
        }
        state.count += 1;
        return { ...state };
    }
    /** Drops finished windows at most once per window length, so memory stays bounded by active callers. */
    sweep(now, windowMs) {
        if (now - this.sweptAt < windowMs)
            return;
        this.sweptAt = now;
        for (const [key, state] of this.windows)
            if (state.resetAt <= now)
                this.windows.delete(key);
    }
    async close() {
        this.windows.clear();
    }
}
//# sourceMappingURL=rate-limit.js.map