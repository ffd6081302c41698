/**
 * The one place cache keys are built, so a writer and a reader can never disagree on a key.
 * Hosts are lower-cased; aliases keep their case (aliases are case-sensitive).
 */
export const cacheKeys = {
    link: (host, alias) => `l:${host.toLowerCase()}/${alias}`,
    domainRoot: (host) => `d:${host.toLowerCase()}`,
    apiKey: (keyHash) => `k:${keyHash}`,
    rateLimit: (bucket, windowStart) => `rl:${bucket}:${windowStart}`,
    campaignRotator: (slug) => `r:${slug}`,
    qr: (slug) => `q:${slug}`,
};
//# sourceMappingURL=cache-keys.js.map