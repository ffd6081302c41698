import { AppError, fail } from '../../lib/errors.js';
import { addLink } from './service.js';
/**
 * Creates each item as `POST /api/url/add` would, in order, one at a time: a failure answers for its own
 * item only, and the links created before and after it stay. `parse` checks an item against the add schema.
 */
export async function addLinks(ctx, userId, items, parse) {
    const results = [];
    for (const item of items) {
        try {
            results.push({ error: 0, ...(await addLink(ctx, userId, parse(item))) });
        }
        catch (error) {
            if (!(error instanceof AppError))
                ctx.log.error({ err: error }, 'bulk link create failed');
            const failure = error instanceof AppError ? error : fail('internal_error');
            results.push({ error: 1, message: failure.message, code: failure.code });
        }
    }
    return results;
}
//# sourceMappingURL=bulk.js.map