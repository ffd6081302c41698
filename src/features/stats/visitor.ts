/**
 * What we can tell about a visitor from a request, shared by targeting (redirect feature) and click
 * statistics. Stub signatures: the stats feature implements them.
 */
export interface Country {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  /** English country name, e.g. "United States". */
  name: string;
}

/** Lower-case device names a link's devicetarget may use for this user agent (iphone, ipad, android, windows, macos, linux, …). */
export function deviceNames(_userAgent: string): string[] {
  return [];
}

/** Country of a client IP from the offline database; null for private or unknown addresses. */
export function countryOf(_ip: string): Country | null {
  return null;
}

export function isBot(_userAgent: string): boolean {
  return false;
}
