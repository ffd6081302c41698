import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { fail } from '../../lib/errors.js';
import { dayClicksPerTarget } from '../../clicks/series-repo.js';
import { formatDay } from './series-buckets.js';
import { MAX_SPARKLINE_IDS } from './sparkline-schema.js';
import { statsTargets } from './ports.js';

const DAY_MS = 86_400_000;

/** `1,2,3` as distinct positive ids; the catalogue's 400 for anything else or for too many. */
function parseIds(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const ids = parts.map(Number);
  if (parts.some((part) => !/^\d{1,10}$/.test(part)) || ids.some((id) => id < 1 || id > 2147483647))
    throw fail('invalid_field', 'ids must be link ids separated by commas, such as 1,2,3.');
  const distinct = [...new Set(ids)];
  if (distinct.length > MAX_SPARKLINE_IDS) throw fail('invalid_field', `ids names at most ${MAX_SPARKLINE_IDS} links.`);
  return distinct;
}

/**
 * The daily clicks of the account's links among `ids` over the last `days` days (today included), read in one
 * query for all of them; ids that are not the account's are absent, as if they did not exist.
 */
export async function sparklines(ctx: AppContext, userId: number, query: { ids: string; days?: number }, now = Date.now()) {
  const ids = parseIds(query.ids);
  const days = query.days ?? 7;
  const to = Math.floor(now / DAY_MS);
  const from = to - days + 1;
  const targets = statsTargets();
  const own = await targets.linkNames(ctx.db, ids, userId);
  const sums = await dayClicksPerTarget(ctx.db, 'link', targets.linkIds(userId, sql<number>`(${sql.join(ids)})`), from, to);
  const lines: Record<string, number[]> = {};
  for (const { id } of own) lines[id] = Array.from({ length: days }, (_, i) => sums.get(id)?.get(from + i) ?? 0);
  return { from: formatDay(from), to: formatDay(to), sparklines: lines };
}
