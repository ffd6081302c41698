import { useSearchParams } from 'wouter';
import type { LinkQuery } from './api.js';

export const PAGE_SIZE = 20;
export const FILTERS = ['campaign', 'channel', 'domain'] as const;
export type FilterName = (typeof FILTERS)[number];

function fromParams(params: URLSearchParams): LinkQuery {
  const page = Math.floor(Number(params.get('page')));
  return {
    page: Number.isFinite(page) && page > 1 ? page : 1,
    limit: PAGE_SIZE,
    order: params.get('order') === 'click' ? 'click' : 'date',
    q: params.get('q') ?? '',
    campaign: params.get('campaign') ?? '',
    channel: params.get('channel') ?? '',
    domain: params.get('domain') ?? '',
    tag: params.getAll('tag'),
    health: params.get('health') ?? '',
  };
}

/** Only what differs from the defaults, so a plain list keeps a plain address; each tag is a `tag` of its own. */
function toParams(query: LinkQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.order !== 'date') params.set('order', query.order);
  for (const name of FILTERS) if (query[name]) params.set(name, query[name]!);
  for (const tag of query.tag ?? []) params.append('tag', tag);
  if (query.health) params.set('health', query.health);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

/**
 * The links table's search, order, filters and page, kept in the address's query so a reload, a bookmark or
 * Back shows the same list. Any change but the page itself starts again at page 1.
 */
export function useLinkQuery(): [LinkQuery, (change: Partial<LinkQuery>) => void] {
  const [params, setParams] = useSearchParams();
  // Typing a search replaces the entry rather than adding one per pause.
  const update = (change: Partial<LinkQuery>) =>
    setParams((current) => toParams({ ...fromParams(current), page: 1, ...change }), { replace: change.q !== undefined });
  return [fromParams(params), update];
}
