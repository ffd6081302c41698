/** The dashboard session cookie: its name and attributes in one place. */
export const SESSION_COOKIE = 'redirectory_session';

/**
 * HttpOnly (scripts never see the token), SameSite=Strict (no other site's page or navigation sends it), host-only
 * (no Domain: sibling hosts never get it), Path=/ (the API and the dashboard), Secure when the dashboard is https.
 */
export function sessionCookie(token: string, maxAgeS: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${Math.max(Math.floor(maxAgeS), 0)}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
