/** The dashboard session cookie: its name and attributes in one place. */
const PLAIN_NAME = 'redirectory_session';

/**
 * On https the name carries the `__Host-` prefix: browsers then accept it only Secure, Path=/ and without Domain, from
 * the dashboard's host itself, so no script on a sibling or parent host (a tag on a pixel page of the short domain)
 * can plant one. A planted cookie of the plain name is a different name there and is never read.
 */
export const sessionCookieName = (secure: boolean) => (secure ? `__Host-${PLAIN_NAME}` : PLAIN_NAME);

/**
 * HttpOnly (scripts never see the token), SameSite=Strict (no other site's page or navigation sends it), host-only
 * (no Domain: sibling hosts never get it), Path=/ (the API and the dashboard), Secure when the dashboard is https.
 */
export function sessionCookie(token: string, maxAgeS: number, secure: boolean): string {
  const name = sessionCookieName(secure);
  return `${name}=${token}; Path=/; Max-Age=${Math.max(Math.floor(maxAgeS), 0)}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/** The host's parent domains a cookie could name (app.sho.rt → app.sho.rt, sho.rt); none for an IP address. */
function cookieDomains(hostname: string): string[] {
  if (/^[\d.]+$/.test(hostname) || hostname.startsWith('[')) return [];
  const labels = hostname.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** Path segments below which cookies are expired; the API's paths have at most 5. */
const MAX_SEGMENTS = 6;

/** Every path a cookie sent with a request to `path` can have (its own and those ending at a `/` in it): `/`, `/api`, `/api/`, … */
function cookiePaths(path: string): string[] {
  const paths = new Set(['/']);
  // Only plain characters go into an attribute; a path of others keeps `/` alone.
  if (!/^\/[\w\-./~%]*$/.test(path)) return [...paths];
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index).slice(1, MAX_SEGMENTS);
  for (const at of slashes) paths.add(path.slice(0, at)).add(path.slice(0, at + 1));
  if (slashes.length < MAX_SEGMENTS - 1) paths.add(path);
  return [...paths];
}

/**
 * Set-Cookie headers that expire every session cookie a request to `path` on the dashboard's host could carry: a
 * browser drops a cookie only for a Set-Cookie of the same name, domain and path, and a planted one may name any
 * parent domain and any path the request lies under.
 */
export function expiredSessionCookies(secure: boolean, hostname: string, path: string): string[] {
  const name = sessionCookieName(secure);
  const expired = `${name}=; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  // A __Host- cookie exists only host-only at Path=/: one Set-Cookie covers it.
  if (secure) return [`${expired}; Path=/`];
  const scopes = ['', ...cookieDomains(hostname).map((domain) => `; Domain=${domain}`)];
  return scopes.flatMap((scope) => cookiePaths(path).map((p) => `${expired}; Path=${p}${scope}`));
}
