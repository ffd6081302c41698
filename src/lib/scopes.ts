/**
 * API key scopes: `<area>:read` or `<area>:write` for each area of the API, or `*` for everything the account
 * can do. A write scope does not include its read scope: a key names each scope it holds.
 */
export const SCOPE_AREAS = ['account', 'links', 'qr', 'domains', 'campaigns', 'channels', 'pixels', 'pages', 'stats'] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];

export const FULL_SCOPE = '*';
export type Scope = `${ScopeArea}:${'read' | 'write'}` | typeof FULL_SCOPE;

/** Every scope a key can hold, `*` first. */
export const SCOPES: readonly Scope[] = [FULL_SCOPE, ...SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as Scope[])];

const KNOWN = new Set<string>(SCOPES);

export function isScope(value: string): value is Scope {
  return KNOWN.has(value);
}

/** Whether a key holding `granted` may act where `needed` is required. */
export function grants(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(FULL_SCOPE) || granted.includes(needed);
}
