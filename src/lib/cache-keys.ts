/**
 * The one place cache keys are built, so a writer and a reader can never disagree on a key.
 * Hosts are lower-cased; aliases keep their case (aliases are case-sensitive).
 */
export const cacheKeys = {
  link: (host: string, alias: string) => `${cacheKeys.linkPrefix(host)}${alias}`,
  /** What every link key of a host starts with: a site computes it once, not per request. */
  linkPrefix: (host: string) => `l:${host.toLowerCase()}/`,
  domainRoot: (host: string) => `d:${host.toLowerCase()}`,
  apiKey: (keyHash: string) => `k:${keyHash}`,
  rateLimit: (bucket: string, windowStart: number) => `rl:${bucket}:${windowStart}`,
  campaignRotator: (slug: string) => `r:${slug}`,
  qr: (slug: string) => `q:${slug}`,
};

/** A link key's host and alias, or null for a key of another kind: the inverse of `cacheKeys.link`. */
export function linkKeyParts(key: string): { host: string; alias: string } | null {
  if (!key.startsWith('l:')) return null;
  const slash = key.indexOf('/');
  return slash < 0 ? null : { host: key.slice(2, slash), alias: key.slice(slash + 1) };
}
