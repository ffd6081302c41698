import type { ScopeArea } from '../../../../src/lib/scopes.js';

/** The API's areas a key can be scoped to, in words, in the order the form offers them; a new area fails the type check until named here. */
const LABELS: Record<ScopeArea, string> = {
  links: 'Links',
  stats: 'Statistics',
  qr: 'QR codes',
  pages: 'Custom pages',
  campaigns: 'Campaigns',
  channels: 'Channels',
  domains: 'Domains',
  pixels: 'Pixels',
  account: 'Account',
};

export const AREAS = (Object.entries(LABELS) as [ScopeArea, string][]).map(([area, label]) => ({ area, label }));

export type Access = 'none' | 'read' | 'write';
export type AreaAccess = Record<ScopeArea, Access>;

export const FULL_ACCESS = '*';

/** What an integration usually needs: to read and make links, nothing else. */
export const DEFAULT_ACCESS: AreaAccess = {
  links: 'write',
  stats: 'none',
  qr: 'none',
  pages: 'none',
  campaigns: 'none',
  channels: 'none',
  domains: 'none',
  pixels: 'none',
  account: 'none',
};

/** `write` means read and write: the API counts them apart, but a key that may change something should see it too. */
export function toScopes(access: AreaAccess): string[] {
  return AREAS.flatMap(({ area }) => {
    const level = access[area];
    return level === 'none' ? [] : level === 'read' ? [`${area}:read`] : [`${area}:read`, `${area}:write`];
  });
}

/** A key's scopes as chips in words, one per area ("Links: read and write"); a scope the dashboard does not know is shown as it is. */
export function describeScopes(scopes: string[]): string[] {
  if (scopes.includes(FULL_ACCESS)) return ['Full access'];
  const chips: string[] = [];
  const known = new Set<string>();
  for (const { area, label } of AREAS) {
    const read = scopes.includes(`${area}:read`);
    const write = scopes.includes(`${area}:write`);
    if (read) known.add(`${area}:read`);
    if (write) known.add(`${area}:write`);
    if (read || write) chips.push(`${label}: ${read && write ? 'read and write' : read ? 'read' : 'write'}`);
  }
  return [...chips, ...scopes.filter((scope) => !known.has(scope))];
}
