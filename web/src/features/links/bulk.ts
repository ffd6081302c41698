import { api, errorText } from '../../lib/api.js';
import type { LinkEntry } from '../../lib/types.js';
import type { LinkQuery } from './api.js';

/** What one bulk action did: how many links it was done to, and each link it failed for with the API's reason. */
export interface BulkOutcome {
  /** Past tense, e.g. "Deleted" or "Added to campaign Spring". */
  did: string;
  done: number;
  failures: { alias: string; message: string }[];
}

/**
 * Runs one API call per selected link through the existing per-link endpoints; a failed link fails alone and is
 * reported with its reason. A page holds at most 20 links, so the calls go out together.
 */
export async function runBulk(links: LinkEntry[], did: string, act: (id: number) => Promise<unknown>): Promise<BulkOutcome> {
  const results = await Promise.allSettled(links.map((link) => act(link.id)));
  const failures = results.flatMap((result, i) =>
    result.status === 'rejected' ? [{ alias: links[i]!.alias, message: errorText(result.reason) }] : [],
  );
  return { did, done: links.length - failures.length, failures };
}

/** What every link matching the list's filters gets: deleted, or added to a campaign or channel (POST /api/urls/bulk/apply). */
export type MatchingChange = { action: 'delete' } | { action: 'campaign'; campaign: number } | { action: 'channel'; channel: number };

type Applied = { result: number; data: Array<{ error: 0 | 1; shorturl: string; message?: string }> };

/** The list's query as the API's filter: search and filters only, empty ones left out, ids as numbers. */
export function filterOf(query: LinkQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (['page', 'limit', 'order'].includes(name) || value === '' || value === undefined) continue;
    filter[name] = (name === 'campaign' || name === 'channel') && /^\d+$/.test(String(value)) ? Number(value) : value;
  }
  return filter;
}

/** One request for every matching link, however many pages they fill; the server answers per link. */
export async function runMatching(query: LinkQuery, did: string, change: MatchingChange): Promise<BulkOutcome> {
  const answer = await api.post<Applied>('/urls/bulk/apply', { ...change, filter: filterOf(query) });
  const failures = answer.data.flatMap((item) =>
    item.error ? [{ alias: item.shorturl.replace(/^https?:\/\//, ''), message: item.message ?? 'Failed.' }] : [],
  );
  return { did, done: answer.data.length - failures.length, failures };
}
