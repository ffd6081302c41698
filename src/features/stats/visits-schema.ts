import { Type } from 'typebox';
import { listResponse } from '../../http/envelopes.js';
import { PageQuery } from '../../lib/pagination.js';
import { VISIT_PAGE_DEPTH } from './visits-depth.js';

/** Shapes of the visit-log routes (visits-routes.ts); the dashboard types its visit tables from them. */
export const VisitEntry = Type.Object({
  date: Type.String({ description: 'When it was served, `YYYY-MM-DD HH:MM:SS` (UTC)' }),
  country: Type.String({ description: "Country name from the visitor's address (the address itself is not kept); `Unknown` when none" }),
  referrer: Type.String({ description: 'Host of the Referer header, or `direct`' }),
  browser: Type.String(),
  os: Type.String(),
  device: Type.String({ description: '`desktop`, `mobile`, `tablet` or `other`' }),
  rule: Type.String({
    description: 'The target rule that chose the destination: `default`, or `device:{name}`, `language:{code}`, `geo:{location}` as set on the link',
  }),
});

const DEPTH = VISIT_PAGE_DEPTH.toLocaleString('en');

const list = listResponse('visits', VisitEntry);
export const VisitList = Type.Object({
  error: list.properties.error,
  data: Type.Object({
    ...list.properties.data.properties,
    before: Type.Union([Type.String(), Type.Null()], {
      description: "Cursor of the visits after this page: send it as `before` for the next page; null at the log's end",
    }),
  }),
});

export const VisitsQuery = Type.Object({
  ...PageQuery.properties,
  before: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,15}-[0-9]{1,9}$',
      description:
        `A cursor a page answered (\`before\`): the visits after that page, \`limit\` of them, at the cost of one page however deep. ` +
        `Not with \`page\`; with it \`currentpage\` and \`nextpage\` are 0. A numbered page may start at most ${DEPTH} visits deep ` +
        '(deeper: 400 `visits_page_too_deep`).',
    }),
  ),
});

/** Most visits one latest-visits answer lists. */
export const LATEST_MAX = 100;
export const LATEST_DEFAULT = 15;

export const LatestVisitsQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: LATEST_MAX, description: `Visits to list, 1 to ${LATEST_MAX}, default ${LATEST_DEFAULT}` }),
  ),
});

const { date, ...labels } = VisitEntry.properties;

export const LatestVisit = Type.Object({
  date,
  type: Type.Union([Type.Literal('link'), Type.Literal('qr')], { description: 'What was visited: a short link or a QR code' }),
  id: Type.Integer({ description: "The link's or QR code's id" }),
  name: Type.String({ description: "A link's title (or meta title), else its short URL; a QR code's name" }),
  shorturl: Type.Optional(Type.String({ description: 'Links only: the short URL' })),
  ...labels,
});

export const LatestVisitsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ visits: Type.Array(LatestVisit) }),
});
