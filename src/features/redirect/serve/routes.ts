import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { statusAndMessage } from '../../../http/errors.js';
import type { Feature } from '../../../http/types.js';
import { errorPage } from '../../../lib/error-pages.js';
import { submitPassword } from '../decide/decide.js';
import { GUESS_LANE, GUESS_LIMITS, GuessGuard } from '../decide/guesses.js';
import type { RateLimitStore } from '../../../http/rate-limit.js';
import type { Resolver } from '../resolve/resolver.js';
import { FORM_LIMIT, FORM_ONLY, FORM_TOO_LARGE, FORM_TYPE, POST_BUDGET, POST_WINDOW_S } from './public-body.js';
import { sendDecision, sendPage } from './send.js';
import { answerNoLink, answerRoot, answerVisit, type ServedVisit } from './visit.js';
import { RATE_SCOPE } from '../../../infra/metrics/counters.js';

const AliasParams = Type.Object({ alias: Type.String({ minLength: 1, maxLength: 1000 }) });
const PasswordForm = Type.Object({ password: Type.Optional(Type.String()) });

const VISIT_DOC =
  'Public: serves a short link. Order: expired (410 page) → password (form; POST checks it) → link previews of social ' +
  'networks (an Open Graph page, not counted) → targeting (device, then Accept-Language by q-value with exact then ' +
  'primary-subtag match, then the country of the client IP by name or ISO code; first match wins, else the long URL; ' +
  'parameters are appended to every destination) → type: direct 302 (Cache-Control: private, max-age=0), or when the ' +
  'link has pixels an HTML page that fires them and forwards after ~1 s; frame (our own /api, /docs, /admin… are linked, ' +
  'never framed; above every frame an "Open the page" link leaves it, for destinations that refuse framing); splash ' +
  "(the account's page or a default one, 5 s countdown); overlay (the destination framed under the " +
  'call-to-action; a contact overlay with an e-mail address opens a mailto: form). On the default domain an alias with no ' +
  'link shows the bio page of that alias; on a branded domain an unknown alias redirects to its redirect404. Every served ' +
  'GET counts one click; HEAD requests do not.';

/**
 * The public side: `/` and `/{alias}` on the default and every branded domain. Registered last (it owns the catch-all).
 * `resolver` is shared with the lean front (app.ts makes both); the body gate before it is the app's (public-body.ts).
 * `store` is the API's rate-limit store (shared through Redis when set), which counts link-password guesses.
 */
export const publicRoutes: Feature<{ resolver: Resolver; store: RateLimitStore }> = async (app, { ctx, resolver, store }) => {
  const guard = new GuessGuard(store, ctx.config.LINK_PASSWORD_CEILING, ctx.log);

  void app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // The password form is the one body read here; its limit also cuts a chunked body that declared no length.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_req, body, done) => {
      done(null, { password: new URLSearchParams(String(body)).get('password') ?? undefined });
    });
    scope.setErrorHandler((error: FastifyError, req, reply) => {
      const [status, message] =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? [415, FORM_ONLY]
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? [413, FORM_TOO_LARGE]
            : statusAndMessage(error);
      if (status >= 500) req.log.error({ err: error }, 'public request failed');
      sendPage(reply, status, errorPage(status, message));
    });

    scope.get(
      '/',
      {
        schema: {
          tags: ['public'],
          summary: 'Domain root',
          description:
            'A branded domain redirects to its redirectroot; otherwise a small landing page. A Host that is no branded domain (in any spelling: case, final dot, port) is served as the default domain.',
          security: [],
        },
      },
      async (req, reply) => sendDecision(reply, answerRoot(await resolver.site(req.host))),
    );

    scope.get(
      '/:alias',
      {
        schema: { tags: ['public'], summary: 'Visit a short link', description: VISIT_DOC, params: AliasParams, security: [] },
      },
      async (req, reply) => {
        const now = Date.now();
        const lookup = resolver.lookup(req.host, req.params.alias, now);
        const found = lookup instanceof Promise ? await lookup : lookup; // a cache hit stays synchronous
        const decision = answerVisit(ctx, found, visitOf(req, now));
        ctx.clicks.journalNow(); // the click reaches the journal before its answer
        return sendDecision(reply, decision);
      },
    );

    scope.post(
      '/:alias',
      {
        schema: {
          tags: ['public'],
          summary: 'Unlock a password-protected short link',
          params: AliasParams,
          body: PasswordForm,
          security: [],
          description:
            'Form field `password` (application/x-www-form-urlencoded, at most 16 KB; any other body answers 415, ' +
            'a larger one 413, before it is read). Right: a signed HttpOnly cookie for this link (one day) and a 200 page ' +
            "that continues to the link (meta refresh and a link; not a 303, since browsers apply the form page's CSP " +
            "form-action 'self' to the whole redirect chain, which ends on another site). A post to a link without a " +
            `password answers the same page. Wrong: the form again with 401. After ${GUESS_LIMITS.client} tries per link and client (an IP ` +
            'address; for IPv6 its /64) within 15 minutes: 429 until the window ends, also for tries sent at once; after ' +
            `${ctx.config.LINK_PASSWORD_CEILING} tries of the link from all clients together within the hour (LINK_PASSWORD_CEILING): ` +
            `429 for everyone until the hour ends. Passwords are checked ${GUESS_LANE.slots} at a time per process with ${GUESS_LANE.waiting} ` +
            'waiting; a try past that answers 429 with Retry-After: 1 at once, unchecked and uncounted. ' +
            `Every public POST counts against the client's budget of ${POST_BUDGET} per ${POST_WINDOW_S} s (per process): ` +
            'past it, a 429 page with Retry-After.',
        },
      },
      async (req, reply) => {
        const now = Date.now();
        const found = await resolver.lookup(req.host, req.params.alias, now);
        if (found.kind !== 'link') return sendDecision(reply, answerNoLink(found));
        const input = { password: req.body?.password ?? '', ip: req.ip, now };
        const decision = await submitPassword(found, input, ctx.secret, guard);
        if (decision.status === 429) ctx.counters.rateLimited[RATE_SCOPE.public]!++;
        return sendDecision(reply, decision);
      },
    );
  });
};

function visitOf(req: FastifyRequest, now: number): ServedVisit {
  return {
    method: req.method,
    host: req.host,
    userAgent: req.headers['user-agent'] ?? '',
    acceptLanguage: req.headers['accept-language'] ?? '',
    ip: req.ip,
    referer: req.headers.referer ?? '',
    cookie: req.headers.cookie,
    url: req.url,
    now,
  };
}
