import { errorResponses, IdParam } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { MAX_BUCKETS, MAX_HOURLY_DAYS } from './series-buckets.js';
import { AccountSeriesQuery, LinkSeriesQuery, SeriesQuery, SeriesResponse } from './series-schema.js';
import { accountSeries, targetSeries } from './series-service.js';
import { MAX_SPARKLINE_IDS, SparklineQuery, SparklineResponse } from './sparkline-schema.js';
import { sparklines } from './sparkline-service.js';

const RULES =
  'Extension. Every bucket from `from` to `to` is listed, oldest first, with 0 where nothing was counted, so a chart draws ' +
  'without gaps; buckets are UTC and a first or last week or month only counts its days inside the range. ' +
  `\`interval=hour\` spans at most ${MAX_HOURLY_DAYS} days, the others at most ${MAX_BUCKETS} buckets (400 \`series_range_too_large\`). ` +
  'Bots are not counted, as in the totals: the buckets of a link or QR code add up to its `clicks` and `uniqueClicks` ' +
  '(clicks counted before the series existed are in the totals only). Hours older than SERIES_HOURLY_DAYS (default 90) are ' +
  'kept as days only, so an hourly series that far back is 0.';

const tags = ['stats'];
const targetSchema = (summary: string, querystring: typeof SeriesQuery | typeof LinkSeriesQuery = SeriesQuery) => ({
  tags,
  summary,
  description: RULES,
  params: IdParam,
  querystring,
  response: { 200: SeriesResponse, ...errorResponses },
});

export const seriesRoutes: Feature = async (app, { ctx }) => {
  app.get('/url/:id/clicks', { schema: targetSchema('Clicks of a short link over time', LinkSeriesQuery) }, async (req) => ({
    error: 0 as const,
    data: await targetSeries(ctx, accountOf(req).userId, 'link', req.params.id, req.query),
  }));

  app.get('/qr/:id/clicks', { schema: targetSchema('Scans of a QR code over time') }, async (req) => ({
    error: 0 as const,
    data: await targetSeries(ctx, accountOf(req).userId, 'qr', req.params.id, req.query),
  }));

  app.get(
    '/stats/clicks',
    {
      schema: {
        tags,
        summary: 'Clicks of the whole account over time',
        description:
          `${RULES} Sums all your links and QR codes, or with \`campaign\` the links of that campaign, or with \`channel\` ` +
          "the links and QR codes in that channel (not both); `uniqueClicks` adds up each one's unique visitors.",
        querystring: AccountSeriesQuery,
        response: { 200: SeriesResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: await accountSeries(ctx, accountOf(req).userId, req.query) }),
  );

  app.get(
    '/urls/sparklines',
    {
      schema: {
        tags,
        summary: 'Daily clicks of many short links at once (extension)',
        description:
          `For a list of links, such as a page of GET /api/urls: one request for up to ${MAX_SPARKLINE_IDS} links instead of one ` +
          'GET /api/url/{id}/clicks per link. Each link of yours among `ids` answers its clicks per UTC day over the last `days` days ' +
          '(default 7, today included), oldest first; ids that are not yours or do not exist are absent from `sparklines`, not an error. ' +
          'Counted as the series are (bots left out).',
        querystring: SparklineQuery,
        response: { 200: SparklineResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: await sparklines(ctx, accountOf(req).userId, req.query) }),
  );
};
