import { errorResponses, IdParam } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { fail } from '../../lib/errors.js';
import { healthOf } from './access.js';
import type { HealthChecker } from './checker.js';
import { healthSources } from './ports.js';
import { CheckAnswer } from './schema.js';

export const healthRoutes: Feature<{ checker: HealthChecker }> = async (app, { ctx, checker }) => {
  app.post(
    '/url/:id/check',
    {
      schema: {
        tags: ['links'],
        summary: "Check a link's destination now (extension)",
        description:
          "Visits the link's destination at once, as the background checker does (HEAD, then GET when HEAD is refused; redirects followed " +
          'up to 5, each hop checked; never to private, loopback, link-local or metadata addresses) and answers the health it recorded, ' +
          'as `details.health` of GET /api/url/{id} shows it. With `healthcheck: false` the link is not checked and its health is `unknown`.',
        params: IdParam,
        response: { 200: CheckAnswer, ...errorResponses },
      },
    },
    async (req) => {
      const links = healthSources().link;
      if (!links || !(await links.owns(ctx.db, accountOf(req).userId, req.params.id))) throw fail('not_found', 'Link');
      // A person is waiting: a host in backoff is asked anyway, once.
      await checker.check('link', req.params.id, 0);
      const health = (await healthOf(ctx.db, 'link', [req.params.id])).get(req.params.id)!;
      return { error: 0 as const, health };
    },
  );
};
