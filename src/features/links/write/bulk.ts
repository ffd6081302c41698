import type { AppContext } from '../../../context.js';
import { AppError, fail, type ErrorCode } from '../../../lib/errors.js';
import { Pacer } from '../../../infra/pacer.js';
import type { LinkInput } from '../schema.js';
import { addLink } from '../service.js';

export type BulkItemResult = { error: 0; id: number; shorturl: string } | { error: 1; message: string; code: ErrorCode };

/** Items whose password will be hashed (a non-empty string): each costs a unit of the caller's rate budget. */
export function passwordItems(items: unknown[]): number {
  return items.filter((item) => {
    const password = (item as { password?: unknown } | null)?.password;
    return typeof password === 'string' && password !== '';
  }).length;
}

/**
 * Creates each item as `POST /api/url/add` would, in order, one at a time: a failure answers for its own
 * item only, and the links created before and after it stay. `parse` checks an item against the add schema.
 */
export async function addLinks(ctx: AppContext, userId: number, items: unknown[], parse: (item: unknown) => LinkInput): Promise<BulkItemResult[]> {
  const results: BulkItemResult[] = [];
  const pacer = new Pacer(); // on SQLite the whole call would otherwise hold the event loop
  for (const item of items) {
    await pacer.turn();
    try {
      results.push({ error: 0, ...(await addLink(ctx, userId, parse(item))) });
    } catch (error) {
      if (!(error instanceof AppError)) ctx.log.error({ err: error }, 'bulk link create failed');
      const failure = error instanceof AppError ? error : fail('internal_error');
      results.push({ error: 1, message: failure.message, code: failure.code });
    }
  }
  return results;
}
