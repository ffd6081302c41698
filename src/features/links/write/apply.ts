import type { Static } from 'typebox';
import type { AppContext } from '../../../context.js';
import { AppError, fail } from '../../../lib/errors.js';
import { Pacer } from '../../../infra/pacer.js';
import { shortUrl } from '../../../lib/short-url.js';
import { addToChannel, ownsChannel } from '../../channels/access.js';
import { moveLinkToCampaign } from '../access.js';
import { linkNeighbours } from '../ports.js';
import * as repo from '../repo.js';
import { MAX_BULK_APPLY, type BulkApplied, type BulkApplyBody } from '../schema.js';
import { deleteLink, listFilter } from '../service.js';

type Body = Static<typeof BulkApplyBody>;
type Result = Static<typeof BulkApplied>['data'][number];

interface Action {
  each(id: number): Promise<unknown>;
  /** Runs once after the last link (rotators reload once, not per link). */
  after?(): Promise<void>;
}

/** The change to make to one link; checked once (the campaign or channel is the caller's) before any link is touched. */
async function actionOf(ctx: AppContext, userId: number, body: Body): Promise<Action> {
  if (body.action === 'delete') return { each: (id) => deleteLink(ctx, userId, id) };
  const target = body[body.action];
  if (target === undefined) throw fail('invalid_field', `${body.action} is required with action ${body.action}.`);
  if (body.action === 'campaign') {
    if (!(await linkNeighbours().ownsCampaign(ctx.db, userId, target))) throw fail('not_found', 'Campaign');
    const changed = new Set([target]);
    return {
      each: async (id) => {
        const previous = await moveLinkToCampaign(ctx, userId, id, target);
        if (previous === undefined) throw fail('not_found', 'Link');
        if (previous) changed.add(previous);
      },
      after: () => linkNeighbours().campaignsChanged(ctx, [...changed]),
    };
  }
  if (!(await ownsChannel(ctx.db, userId, target))) throw fail('not_found', 'Channel');
  return { each: (id) => addToChannel(ctx.db, target, 'links', id) };
}

/**
 * Deletes, or adds to a campaign or channel, every link of the account that matches the filters of GET /api/urls,
 * one link at a time as the per-link endpoints would: a failure answers for its own link only.
 */
export async function applyToMatching(ctx: AppContext, userId: number, body: Body) {
  const filter = await listFilter(ctx, userId, body.filter);
  const act = await actionOf(ctx, userId, body);
  const links = await repo.matchingLinks(ctx.db, userId, filter, MAX_BULK_APPLY + 1);
  if (links.length > MAX_BULK_APPLY) throw fail('bulk_too_large', await repo.countLinks(ctx.db, userId, filter), MAX_BULK_APPLY);
  const data: Result[] = [];
  const pacer = new Pacer(); // a 10,000-link change never holds the event loop for long
  for (const link of links) {
    await pacer.turn();
    const shorturl = shortUrl(ctx.config, link.scheme && link.host ? { scheme: link.scheme, host: link.host } : null, link.alias);
    try {
      await act.each(link.id);
      data.push({ error: 0, id: link.id, shorturl });
    } catch (error) {
      if (!(error instanceof AppError)) ctx.log.error({ err: error }, 'bulk link change failed');
      const failure = error instanceof AppError ? error : fail('internal_error');
      data.push({ error: 1, id: link.id, shorturl, message: failure.message, code: failure.code });
    }
  }
  await act.after?.();
  return { error: 0 as const, result: links.length, data };
}
