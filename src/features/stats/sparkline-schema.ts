import { Type } from 'typebox';

/** The most links one sparklines request reads: a page of the links list is 20, the API's largest page 100. */
export const MAX_SPARKLINE_IDS = 100;
/** The longest sparkline, in days. */
export const MAX_SPARKLINE_DAYS = 90;

export const SparklineQuery = Type.Object({
  ids: Type.String({ description: `Link ids separated by commas, 1 to ${MAX_SPARKLINE_IDS}; ids that are not yours are left out of the answer` }),
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_SPARKLINE_DAYS, description: `Days ending today (UTC), 1 to ${MAX_SPARKLINE_DAYS}; default 7` }),
  ),
});

export const SparklineResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'First day, `YYYY-MM-DD` (UTC)' }),
    to: Type.String({ description: 'Last day, today, `YYYY-MM-DD` (UTC)' }),
    sparklines: Type.Record(Type.String(), Type.Array(Type.Integer()), {
      description: 'Link id → clicks per day from `from` to `to`, oldest first, 0 on days without clicks',
    }),
  }),
});
