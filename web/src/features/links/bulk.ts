import { errorText } from '../../lib/api.js';
import type { LinkEntry } from '../../lib/types.js';

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
