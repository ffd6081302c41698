export class BoundedCache {
    options;
    current = new Map();
    previous = new Map();
    currentWeight = 0;
    previousWeight = 0;
    half;
    halfWeight;
    constructor(max, options = {}) {
        this.options = options;
        this.half = Math.max(1, Math.ceil(max / 2));
        this.halfWeight = (options.maxWeight ?? Infinity) / 2;
    }
    get(key) {
        const value = this.current.get(key);
        if (value !== undefined)
            return value;
        const old = this.previous.get(key);
        if (old !== undefined)
            this.set(key, old); // used again: survives the next turnover
        return old;
    }
    set(key, value) {
        const weight = this.weigh(value);
        if (weight > this.halfWeight)
            return;
        this.delete(key);
        if (this.current.size >= this.half || this.currentWeight + weight > this.halfWeight)
            this.turnOver();
        this.current.set(key, value);
        this.currentWeight += weight;
    }
    delete(key) {
        const value = this.current.get(key);
        if (value !== undefined) {
            this.current.delete(key);
            this.currentWeight -= this.weigh(value);
        }
        const old = this.previous.get(key);
        if (old !== undefined) {
            this.previous.delete(key);
            this.previousWeight -= this.weigh(old);
        }
    }
    get size() {
        return this.current.size + this.previous.size;
    }
    /** Every key, the most recent generation first (a copy: deleting while iterating is safe). */
    keys() {
        return [...this.current.keys(), ...this.previous.keys()];
    }
    clear() {
        this.current = new Map();
        this.previous = new Map();
        this.currentWeight = this.previousWeight = 0;
    }
    turnOver() {
        const forgotten = this.previous;
        this.previous = this.current;
        this.previousWeight = this.currentWeight;
        this.current = new Map();
        this.currentWeight = 0;
        const { onEvict } = this.options;
        if (onEvict)
            for (const [key, value] of forgotten)
                onEvict(key, value);
    }
    weigh(value) {
        return this.options.weigh?.(value) ?? 0;
    }
}
/** Memoizes a function of one string in a BoundedCache; keys longer than maxKey are computed, not kept. */
export function memoize(fn, max, maxKey = 512) {
    const cache = new BoundedCache(max);
    return (key) => {
        let value = cache.get(key);
        if (value === undefined) {
            value = fn(key);
            if (key.length <= maxKey)
                cache.set(key, value);
        }
        return value;
    };
}
/**
 * A BoundedCache whose entries also expire: older than their time-to-live they count as missing and
 * are re-read (a backstop for nodes that miss an invalidation). `max` 0 keeps nothing.
 */
export class ExpiringCache {
    max;
    entries;
    constructor(max, options = {}) {
        this.max = max;
        const { weigh } = options;
        this.entries = new BoundedCache(max, { maxWeight: options.maxWeight, weigh: weigh && ((entry) => weigh(entry.value)) });
    }
    /** The value, or undefined when absent or stale; `now` comes from the caller so one visit reads the clock once. */
    get(key, now = Date.now()) {
        const entry = this.entries.get(key);
        if (entry === undefined)
            return undefined;
        if (entry.expiresAt > now)
            return entry.value;
        this.entries.delete(key);
        return undefined;
    }
    set(key, value, ttlMs, now = Date.now()) {
        if (this.max > 0 && ttlMs > 0)
            this.entries.set(key, { value, expiresAt: now + ttlMs });
    }
    delete(key) {
        this.entries.delete(key);
    }
    deleteWhere(match) {
        for (const key of this.entries.keys())
            if (match(key))
                this.entries.delete(key);
    }
    get size() {
        return this.entries.size;
    }
}
//# sourceMappingURL=bounded-cache.js.map