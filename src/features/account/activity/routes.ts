import { errorResponses } from '../../../http/envelopes.js';
import { accountOf, type Feature } from '../../../http/types.js';
import { ActivityQuery, ActivityResponse } from './schema.js';
import { listActivity, scheduleActivityPrune } from './service.js';

export const activityRoutes: Feature = async (app, { ctx }) => {
  // The log's hourly prune runs while the app does, and stops with it.
  const stopPrune = scheduleActivityPrune(ctx, ctx.log);
  app.addHook('onClose', () => stopPrune());
  app.get(
    '/account/activity',
    {
      schema: {
        tags: ['account'],
        summary: 'The account activity log',
        description:
          'Extension. Sign-ins (and failed or throttled ones), sign-outs, e-mail, password, API key and webhook changes, imports and ' +
          "exports, newest first, kept ACTIVITY_LOG_DAYS days (default 90). `via` is the API key's name, `session` or `cli`; `ip` is " +
          "the network only (IPv4 /24, IPv6 /48) and `agent` the browser and OS family (or a tool's, e.g. `curl`): no address or " +
          'User-Agent is kept. `result` counts every entry kept.',
        querystring: ActivityQuery,
        response: { 200: ActivityResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: await listActivity(ctx, accountOf(req).userId, req.query) }),
  );
};
