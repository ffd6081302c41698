import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { statusAndMessage } from '../../http/errors.js';
import type { App } from '../../http/types.js';
import { decide, submitPassword } from './decide.js';
import { FailureThrottle } from './password.js';
import { errorPage, LANDING_PAGE, NOT_FOUND_PAGE } from './public-pages.js';
import { resolverFor, type Lookup } from './resolver.js';
import type { CompiledLink } from './compile.js';
import { sendDecision, sendPage, sendRedirect } from './send.js';

const AliasParams = Type.Object({ alias: Type.String({ minLength: 1, maxLength: 1000 }) });
const PasswordForm = Type.Object({ password: Type.Optional(Type.String()) });
const FORM_LIMIT = 16 * 1024;

const VISIT_DOC =
  'Public: serves a short link. Order: expired (410 page) → password (form; POST checks it) → targeting (device, then ' +
  'Accept-Language by q-value with exact then primary-subtag match, then country of the client IP; first match wins, ' +
  'else the long URL) → type (direct 302, frame, splash, overlay; pixels fire on an HTML page that then forwards). ' +
  'Link previews of social networks get an Open Graph page. On the default domain an alias with no link shows the bio ' +
  'page of that alias; on a branded domain an unknown alias redirects to its redirect404. HEAD requests are not counted.';

/** The public side: `/` and `/{alias}` on the default and every branded domain. Registered last (it owns the catch-all). */
export function publicRoutes(app: App, ctx: AppContext): void {
  const resolver = resolverFor(ctx);
  const throttle = new FailureThrottle();

  void app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // The password form posts here (JSON clients may too); plain text would only fail validation, so it is refused as 415.
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_req, body, done) => {
      done(null, { password: new URLSearchParams(String(body)).get('password') ?? undefined });
    });
    scope.setErrorHandler((error: FastifyError, req, reply) => {
      const [status, message] = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? [415, 'Send the password form as application/x-www-form-urlencoded.']
        : statusAndMessage(error);
      if (status >= 500) req.log.error({ err: error }, 'public request failed');
      sendPage(reply, status, errorPage(status, message));
    });

    scope.get('/', {
      schema: { tags: ['public'], summary: 'Domain root', description: 'A branded domain redirects to its redirectroot; otherwise a small landing page. Unknown hosts get 404.', security: [] },
    }, async (req, reply) => {
      const site = await resolver.site(req.host);
      if (!site) return sendPage(reply, 404, NOT_FOUND_PAGE);
      return site.root ? sendRedirect(reply, 302, site.root) : sendPage(reply, 200, LANDING_PAGE);
    });

    scope.get('/:alias', {
      schema: { tags: ['public'], summary: 'Visit a short link', description: VISIT_DOC, params: AliasParams, security: [] },
    }, async (req, reply) => {
      const now = Date.now();
      const lookup = resolver.lookup(req.host, req.params.alias, now);
      const found = lookup instanceof Promise ? await lookup : lookup; // a cache hit stays synchronous
      if (found.kind !== 'link') return sendFound(reply, found);
      const visit = visitOf(req, now);
      const decision = decide(found, visit, ctx.secret);
      if (decision.count && req.method === 'GET') {
        const { ip, userAgent, referer, acceptLanguage } = visit;
        ctx.clicks.record('link', found.id, { ip, userAgent, referer, acceptLanguage, at: now });
      }
      return sendDecision(reply, decision);
    });

    scope.post('/:alias', {
      schema: {
        tags: ['public'], summary: 'Unlock a password-protected short link', params: AliasParams, body: PasswordForm, security: [],
        description: 'Form field `password` (application/x-www-form-urlencoded). Right: a signed HttpOnly cookie for this ' +
          'link (one day) and 303 back to the link. Wrong: the form again with 401. After 5 wrong tries per link and ' +
          'client IP within 15 minutes: 429 until the window ends.',
      },
    }, async (req, reply) => {
      const now = Date.now();
      const found = await resolver.lookup(req.host, req.params.alias, now);
      if (found.kind !== 'link') return sendFound(reply, found);
      const input = { password: req.body?.password ?? '', ip: req.ip, now };
      return sendDecision(reply, await submitPassword(found, input, ctx.secret, throttle));
    });
  });

  function sendFound(reply: FastifyReply, found: Exclude<Lookup, CompiledLink>): FastifyReply {
    if (found.kind === 'bio') return sendPage(reply, 200, found.page);
    if (found.kind === 'missing' && found.site.notFound) return sendRedirect(reply, 302, found.site.notFound);
    return sendPage(reply, 404, NOT_FOUND_PAGE);
  }
}

function visitOf(req: FastifyRequest, now: number) {
  return {
    userAgent: req.headers['user-agent'] ?? '',
    acceptLanguage: req.headers['accept-language'] ?? '',
    ip: req.ip,
    referer: req.headers.referer ?? '',
    cookie: req.headers.cookie,
    now,
  };
}
