import type { AppContext } from '../../context.js';
import { csvResponse, errorResponses, IdParam } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { actorOf } from '../../http/actor.js';
import { recordActivity } from '../account/activity/service.js';
import { CSV_FORMULA_RULE, csvWriter } from '../../lib/csv-cells.js';
import type { TargetKind } from '../../db/types.js';
import { SeriesQuery } from './series-schema.js';
import { targetSeries, type SeriesQuery as Query } from './series-service.js';

const COLUMNS = ['date', 'clicks', 'uniqueClicks'];

/** A series as CSV with a header row; a series is at most a few thousand buckets, read like the JSON one. */
async function seriesCsv(ctx: AppContext, userId: number, kind: TargetKind, id: number, query: Query) {
  const points = await targetSeries(ctx, userId, kind, id, query);
  const csv = csvWriter(COLUMNS);
  for (const point of points) csv.write(point);
  csv.end();
  return csv;
}

const schema = (what: string, json: string) => ({
  tags: ['stats'],
  summary: `Clicks of ${what} over time, as CSV (extension)`,
  description: `The series of \`${json}\` as a \`text/csv\` download with the header row ${COLUMNS.join(',')}: the same query, buckets and rules. ${CSV_FORMULA_RULE}`,
  params: IdParam,
  querystring: SeriesQuery,
  response: { 200: csvResponse('The series as CSV'), ...errorResponses },
});

export const seriesExportRoutes: Feature = async (app, { ctx }) => {
  for (const [kind, path, what] of [
    ['link', 'url', 'a short link'],
    ['qr', 'qr', 'a QR code'],
  ] as const) {
    app.get(`/${path}/:id/clicks/export`, { schema: schema(what, `GET /api/${path}/{id}/clicks`) }, async (req, reply) => {
      const csv = await seriesCsv(ctx, accountOf(req).userId, kind, req.params.id, req.query);
      await recordActivity(ctx, accountOf(req).userId, 'export', actorOf(req));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${kind}-${req.params.id}-clicks.csv"`)
        .send(csv);
    });
  }
};
