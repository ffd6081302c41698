import type { LinkRow } from '../../db/types.js';
import { readRouting } from '../../lib/routing.js';

type Destinations = Pick<LinkRow, 'long_url' | 'routing' | 'geo_targets' | 'device_targets' | 'language_targets'>;

/**
 * Every address a link sends its visitors to, its own destination first, each once: its rules' and split
 * variants' addresses, then those of the spec's targets. What the health checker visits; the worst of them
 * decides the link's health (docs/decisions/0010-link-health.md).
 */
export function destinationsOf(link: Destinations): string[] {
  const routing = readRouting(link.routing);
  const urls = [link.long_url, ...(routing.split ?? []).map((v) => v.url)];
  for (const rule of routing.rules ?? []) urls.push(...(rule.url ? [rule.url] : []), ...(rule.split ?? []).map((v) => v.url));
  for (const stored of [link.geo_targets, link.device_targets, link.language_targets]) urls.push(...targetLinks(stored));
  return [...new Set(urls.map((url) => url.trim()).filter(Boolean))];
}

/** The `link` of each entry of a stored target list (JSON in add's shape); none when unreadable. */
function targetLinks(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored || '[]');
    return Array.isArray(list) ? list.flatMap((t: { link?: unknown }) => (typeof t?.link === 'string' ? [t.link] : [])) : [];
  } catch {
    return [];
  }
}
