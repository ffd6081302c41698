import { memoize } from '../../../lib/bounded-cache.js';
import { countryOf } from '../../../infra/geo.js';
import { deviceNames } from '../../../lib/visitor.js';
import { preferredLanguages } from '../../../lib/languages.js';

export { normalizeLanguage } from '../../../lib/languages.js';

/** A destination a target rule chose, with the rule's name for the visit log (`device:iphone`, `language:fr`, `geo:us`). */
export interface Target {
  destination: string;
  rule: string;
}

/** A link's targets, compiled so a visit only does map lookups; destinations are final URL strings. */
export interface Targeting {
  /** In the link's order: the first device the visitor's user agent names wins. */
  devices: Array<[name: string, target: Target]> | null;
  /** Exact language codes (lower-case, `-` separated). */
  languages: Map<string, Target> | null;
  /** Primary subtags (`pt` of `pt-br`); a code without region wins over one with. */
  primaries: Map<string, Target> | null;
  /** Country names and ISO codes, lower-case. */
  locations: Map<string, Target> | null;
}

export interface Visitor {
  userAgent: string;
  acceptLanguage: string;
  ip: string;
}

/** Device, then language, then location: the first that matches picks the destination. */
export function target(targeting: Targeting, visitor: Visitor): Target | undefined {
  return (
    (targeting.devices && byDevice(targeting.devices, visitor.userAgent)) ??
    (targeting.languages && byLanguage(targeting, visitor.acceptLanguage)) ??
    (targeting.locations && byLocation(targeting.locations, visitor.ip)) ??
    undefined
  );
}

function byDevice(devices: Array<[string, Target]>, userAgent: string): Target | undefined {
  if (!userAgent) return undefined;
  const names = deviceNames(userAgent);
  if (names.length === 0) return undefined;
  for (const [name, destination] of devices) {
    if (names.includes(name)) return destination;
  }
  return undefined;
}

function byLanguage(targeting: Targeting, header: string): Target | undefined {
  if (!header) return undefined;
  for (const tag of languagesOf(header)) {
    const exact = targeting.languages!.get(tag);
    if (exact) return exact;
    const dash = tag.indexOf('-');
    const primary = targeting.primaries!.get(dash < 0 ? tag : tag.slice(0, dash));
    if (primary) return primary;
  }
  return undefined;
}

function byLocation(locations: Map<string, Target>, ip: string): Target | undefined {
  const country = ip ? countryOf(ip) : null;
  if (!country) return undefined;
  return locations.get(country.name.toLowerCase()) ?? locations.get(country.code.toLowerCase());
}

// Browsers send a handful of distinct headers: parse each once, not on every targeted visit.
export const languagesOf = memoize(preferredLanguages, 2_000, 256);
