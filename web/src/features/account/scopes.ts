/** The API's areas a key can be scoped to, in the order the form offers them, with their names in words. */
export const AREAS = [
  { area: 'links', label: 'Links' },
  { area: 'stats', label: 'Statistics' },
  { area: 'qr', label: 'QR codes' },
  { area: 'pages', label: 'Custom pages' },
  { area: 'campaigns', label: 'Campaigns' },
  { area: 'channels', label: 'Channels' },
  { area: 'domains', label: 'Domains' },
  { area: 'pixels', label: 'Pixels' },
  { area: 'account', label: 'Account' },
] as const;

export type Area = (typeof AREAS)[number]['area'];
export type Access = 'none' | 'read' | 'write';
export type AreaAccess = Record<Area, Access>;

export const FULL_ACCESS = '*';

/** What an integration usually needs: to read and make links, nothing else. */
export const DEFAULT_ACCESS: AreaAccess = {
  links: 'write', stats: 'none', qr: 'none', pages: 'none', campaigns: 'none', channels: 'none', domains: 'none', pixels: 'none', account: 'none',
};

/** `write` means read and write: a key that may change something may also see it. */
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
