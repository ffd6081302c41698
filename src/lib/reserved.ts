/**
 * First path segments the service uses itself: no alias, bio page or campaign slug may take them.
 * Compared case-insensitively so `API` cannot shadow `/api` on a case-insensitive proxy.
 */
const RESERVED = new Set([
  'api',
  'app',
  'r',
  'u',
  'qr',
  'docs',
  'health',
  'ready',
  'metrics',
  'static',
  'assets',
  'admin',
  'login',
  'logout',
  'register',
  'signup',
  'dashboard',
  'settings',
  'account',
  'user',
  'users',
  'bio',
  'page',
  'pages',
  'favicon.ico',
  'robots.txt',
  'sitemap.xml',
  'openapi.json',
  'well-known',
  '.well-known',
]);

/** No longer segment is reserved: most aliases are answered without lower-casing them. */
const LONGEST = Math.max(...[...RESERVED].map((word) => word.length));

export function isReserved(segment: string): boolean {
  return segment.length <= LONGEST && RESERVED.has(segment.toLowerCase());
}

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;
