import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { TargetKind } from '../../db/types.js';
import { errorResponses, IdParam } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { actorOf } from '../../http/actor.js';
import { recordActivity } from '../account/activity/service.js';
import { CSV_FORMULA_RULE } from '../../lib/csv-cells.js';
import { listEnvelope } from '../../lib/pagination.js';
import { EXPORT_COLUMNS, exportAccountVisits, exportTargetVisits, latestVisits } from './visits-service.js';
import { listVisits } from './visits-pages.js';
import { LatestVisitsQuery, LatestVisitsResponse, VisitList, VisitsQuery } from './visits-schema.js';

const LOG =
  'Extension. The visit log: one entry per counted visit (bots are redirected but not counted, as in the totals), newest first, ' +
  'kept VISIT_LOG_DAYS days (default 30; 0 keeps none). No IP address, user agent or visitor hash is stored.';
const EXPORT =
  `CSV with a header row (${EXPORT_COLUMNS.map((c) => `\`${c}\``).join(', ')}; \`type\` is \`link\` or \`qr\`), newest first, streamed ` +
  `as it is read, as an attachment. ${CSV_FORMULA_RULE}`;
const LATEST =
  'The latest visits of all your links and QR codes together, newest first, each naming what was visited (`type`, ' +
  "`id`, `name`, and for links `shorturl`), read through the log's index by account.";
const tags = ['stats'];
const Csv = { description: 'The visits as CSV', content: { 'text/csv': { schema: Type.String() } } };

const listSchema = (summary: string) => ({
  tags,
  summary,
  description: LOG,
  params: IdParam,
  querystring: VisitsQuery,
  response: { 200: VisitList, ...errorResponses },
});
const exportSchema = (summary: string) => ({
  tags,
  summary,
  description: `${LOG} ${EXPORT}`,
  params: IdParam,
  response: { 200: Csv, ...errorResponses },
});

// The schema types the body as a string; the CSV goes out as a stream, which Fastify sends unserialized.
const streamed = (csv: Readable) => csv as unknown as string;
const attachment = (name: string) => ({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}.csv"` });

export const visitRoutes: Feature = async (app, { ctx }) => {
  for (const [kind, path, what] of [
    ['link', 'url', 'short link'],
    ['qr', 'qr', 'QR code'],
  ] as Array<[TargetKind, string, string]>) {
    app.get(`/${path}/:id/visits`, { schema: listSchema(`Recent visits of a ${what}`) }, async (req) => {
      const { before, ...page } = await listVisits(ctx, accountOf(req).userId, kind, req.params.id, req.query);
      const envelope = listEnvelope('visits', page);
      return { ...envelope, data: { ...envelope.data, before } };
    });

    app.get(`/${path}/:id/visits/export`, { schema: exportSchema(`Visits of a ${what} as CSV`) }, async (req, reply) => {
      const csv = await exportTargetVisits(ctx, accountOf(req).userId, kind, req.params.id);
      await recordActivity(ctx, accountOf(req).userId, 'export', actorOf(req));
      return reply.headers(attachment(`${kind}-${req.params.id}-visits`)).send(streamed(csv));
    });
  }

  app.get(
    '/visits',
    {
      schema: {
        tags,
        summary: 'Latest visits of all your links and QR codes',
        description: `${LOG} ${LATEST}`,
        querystring: LatestVisitsQuery,
        response: { 200: LatestVisitsResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: { visits: await latestVisits(ctx, accountOf(req).userId, req.query) } }),
  );

  app.get(
    '/visits/export',
    {
      schema: {
        tags,
        summary: 'Visits of all your links and QR codes as CSV',
        description: `${LOG} ${EXPORT} \`from\` and \`to\` (days, UTC, both included, optional) keep the visits served between them.`,
        querystring: Type.Object({
          from: Type.Optional(Type.String({ description: 'First day, `YYYY-MM-DD` (UTC)' })),
          to: Type.Optional(Type.String({ description: 'Last day, included, `YYYY-MM-DD` (UTC)' })),
        }),
        response: { 200: Csv, ...errorResponses },
      },
    },
    async (req, reply) => {
      const csv = await exportAccountVisits(ctx, accountOf(req).userId, req.query);
      await recordActivity(ctx, accountOf(req).userId, 'export', actorOf(req));
      return reply.headers(attachment('visits')).send(streamed(csv));
    },
  );
};
