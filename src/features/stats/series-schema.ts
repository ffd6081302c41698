import { Type } from 'typebox';
import { Id } from '../../http/envelopes.js';

/** Queries and answer of the clicks-over-time routes (series-routes.ts); the dashboard types its charts from them. */
export const SeriesQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'First day, `YYYY-MM-DD` (UTC); default 30 days before `to`' })),
  to: Type.Optional(Type.String({ description: 'Last day, included, `YYYY-MM-DD` (UTC); default today' })),
  interval: Type.Optional(Type.String({ description: '`hour`, `day` (default), `week` (ISO, from Monday) or `month`' })),
});

export const LinkSeriesQuery = Type.Object({
  ...SeriesQuery.properties,
  variant: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Extension: only the visits of this split variant, numbered as `data.variants` of GET /api/url/{id} lists them (from 0)',
    }),
  ),
});

export const AccountSeriesQuery = Type.Object({
  ...SeriesQuery.properties,
  campaign: Type.Optional(Id('Only the links of this campaign of yours')),
  channel: Type.Optional(Id('Only the links and QR codes in this channel of yours')),
});

export const SeriesResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Array(
    Type.Object({
      date: Type.String({ description: "`YYYY-MM-DD HH:00:00` for hours, else the bucket's first day `YYYY-MM-DD` (UTC)" }),
      clicks: Type.Integer(),
      uniqueClicks: Type.Integer({ description: 'Visitors first seen for the link or QR code in this bucket' }),
    }),
  ),
});
