/**
 * "Cache on the second request": a fixed-size Bloom filter of keys seen recently. A cache asks it before
 * storing; keys requested once (the long tail of a million links) are never stored, so they neither
 * evict hot entries nor leave evicted entries behind for the garbage collector's old generation.
 * It forgets everything after `capacity` new keys, so "recently" is the last `capacity` distinct misses.
 */
export class Doorkeeper {
    capacity;
    bits;
    mask;
    added = 0;
    constructor(capacity) {
        this.capacity = capacity;
        // About 16 bits per key with 3 probes: under 0.5 % false "seen before" when full.
        let size = 1024;
        while (size < capacity * 16)
            size *= 2;
        this.bits = new Uint32Array(size / 32);
        this.mask = size - 1;
    }
    /** Records the key; true when it had been recorded before (since the last reset). */
    seenBefore(key) {
        const h1 = fnv1a(key, 0x811c9dc5);
        const h2 = fnv1a(key, 0x01000193) | 1;
        let seen = true;
        for (let i = 0; i < 3; i++) {
            const bit = (h1 + i * h2) & this.mask;
            const word = bit >>> 5;
            const flag = 1 << (bit & 31);
            if ((this.bits[word] & flag) === 0) {
                seen = false;
                this.bits[word] |= flag;
            }
        }
        if (!seen && ++this.added >= this.capacity)
            this.reset();
        return seen;
    }
    reset() {
        this.bits.fill(0);
        this.added = 0;
    }
}
function fnv1a(text, seed) {
    let hash = seed;
    for (let i = 0; i < text.length; i++)
        hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    return hash >>> 0;
}
//# sourceMappingURL=doorkeeper.js.map