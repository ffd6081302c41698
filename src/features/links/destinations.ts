import type { LinkRow } from '../../db/types.js';

/**
 * Every address a link sends its visitors to, its own destination first: what the health checker visits.
 * The routing rules' and split variants' addresses join this list when links carry them.
 */
export function destinationsOf(link: Pick<LinkRow, 'long_url'>): string[] {
  return [link.long_url.trim()];
}
