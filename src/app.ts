import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createServer } from 'node:http';
import { sql } from 'kysely';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';
import { composeFeatures } from './compose.js';
import { accountRoutes } from './features/account/routes.js';
import { accountByApiKey } from './features/account/keys/service.js';
import { apiKeyRoutes } from './features/account/keys/routes.js';
import { activityRoutes } from './features/account/activity/routes.js';
import { reportDuplicateEmails } from './features/account/start-up.js';
import { campaignRoutes } from './features/campaigns/routes.js';
import { channelRoutes } from './features/channels/routes.js';
import { domainRoutes } from './features/domains/routes.js';
import { linkRoutes } from './features/links/routes.js';
import { tagRoutes } from './features/tags/routes.js';
import { webhookRoutes } from './features/webhooks/routes.js';
import { WebhookWorker } from './features/webhooks/worker.js';
import { HealthChecker } from './features/health/checker.js';
import { healthRoutes } from './features/health/routes.js';
import { dashboardRoutes } from './features/dashboard/routes.js';
import { customPageRoutes } from './features/custom-pages/routes.js';
import { pixelRoutes } from './features/pixels/routes.js';
import { qrRoutes } from './features/qr/routes.js';
import { sessionRoutes } from './features/session/routes.js';
import { sessionCookieName } from './features/session/cookie.js';
import { endOtherSessions, secureDashboard, sessionLookup } from './features/session/service.js';
import { announceSetup } from './features/session/setup.js';
import { seriesRoutes } from './features/stats/series-routes.js';
import { visitRoutes } from './features/stats/visits-routes.js';
import { seriesExportRoutes } from './features/stats/series-export.js';
import { linkCsvRoutes, linkImportRoutes } from './features/links/csv-routes.js';
import { campaignPublicRoutes } from './features/campaigns/public-routes.js';
import { qrPublicRoutes } from './features/qr/public-routes.js';
import { qrCachesPlugin } from './features/qr/cache.js';
import { Resolver } from './features/redirect/resolve/resolver.js';
import { leanFront } from './features/redirect/serve/front.js';
import { publicBodyGate } from './features/redirect/serve/public-body.js';
import { publicRoutes } from './features/redirect/serve/routes.js';
import { apiGate } from './http/auth.js';
import { CachedDocument } from './http/cached-document.js';
import { registerDocsAssets } from './http/docs-assets.js';
import { strictTransport } from './http/strict-transport.js';
import { ErrorBody } from './http/envelopes.js';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './http/errors.js';
import { BODY_LIMIT, registerJsonBody } from './http/json-body.js';
import { chargeNothing } from './http/rate-budget.js';
import { MemoryRateLimitStore, type RateLimitStore } from './http/rate-limit.js';
import type { App, Feature, GateConfig } from './http/types.js';
import { scopeRoutes } from './http/scopes.js';
import { validatorCompiler } from './http/validation.js';
import { checkReadiness } from './infra/readiness.js';
import { PAGE_STYLE, PAGE_STYLE_PATH } from './lib/page-style.js';
import { DOCS_LOGO, DOCS_THEME, DOCS_UI_CONFIG } from './lib/docs-theme.js';
import { RedisRateLimitStore } from './http/redis-rate-limit.js';
import { metricsPort, metricsRoutes, observeApi } from './features/metrics/routes.js';

/** The /api features in the order they register: the order of the OpenAPI document's paths. */
const API_FEATURES: Feature[] = [
  apiKeyRoutes,
  activityRoutes,
  domainRoutes,
  customPageRoutes,
  campaignRoutes,
  channelRoutes,
  linkRoutes,
  tagRoutes,
  pixelRoutes,
  qrRoutes,
  seriesRoutes,
  visitRoutes,
  linkCsvRoutes,
  seriesExportRoutes,
  webhookRoutes,
];

export interface AppOptions {
  rateLimitStore?: RateLimitStore;
}

/** Builds the Redirectory HTTP app on a context; never listens (server.ts and the tests do). */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<App> {
  composeFeatures();
  // One link cache for the lean front (made with the server, before any plugin) and the redirect routes.
  const resolver = new Resolver(ctx);
  const app: App = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT,
    // Per-request log lines would dominate the redirect path; errors are still logged.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(ctx.config.LOG_LEVEL) }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Cached short links are answered before Fastify's per-request work; the rest reaches Fastify unchanged.
    serverFactory: (handler) => createServer(strictTransport(ctx.config, leanFront(ctx, resolver, handler))),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onClose', () => resolver.close());
  // The resident link index fills once the server listens: its reads must not stretch start-up.
  app.addHook('onListen', () => resolver.startIndex());
  // The link checker runs on every serving node; leases in the database keep two from checking one link.
  const checker = new HealthChecker(ctx);
  app.addHook('onListen', () => checker.start());
  app.addHook('onClose', () => checker.close());
  // So does the webhook sender; a lease per delivery keeps two nodes from sending one.
  const webhooks = new WebhookWorker(ctx, (result) => ctx.counters.webhookDeliveries.increment(result));
  app.addHook('onListen', () => webhooks.start());
  app.addHook('onClose', () => webhooks.close());
  // Outbound work is cut short as shutdown begins, not after requests drain: a check a person asked for ends too.
  app.addHook('preClose', async () => {
    checker.abort();
    webhooks.abort();
  });
  app.setValidatorCompiler(validatorCompiler());
  app.decorateRequest('account', null);
  app.decorateRequest('chargeUnits', chargeNothing);
  app.addSchema(ErrorBody);
  registerJsonBody(app);
  registerErrorHandler(app);
  await registerDocs(app, ctx);

  const store =
    options.rateLimitStore ?? (ctx.redis ? new RedisRateLimitStore(ctx.redis, ctx.config.REDIS_PREFIX, ctx.log) : new MemoryRateLimitStore());
  app.addHook('onClose', () => store.close());
  // The gate and the scope stamps are hooks of this scope: registered first, they cover every feature in it.
  await app.register(
    async (api) => {
      api.addHook(
        'onRequest',
        apiGate(ctx, store, (key) => accountByApiKey(ctx, key), sessionLookup(ctx)),
      );
      scopeRoutes(api);
      observeApi(api, ctx);
      // Account changes end sessions, which the session feature owns: wired here, as session imports account.
      await api.register(accountRoutes, { ctx, store, endSessions: (userId, keep) => endOtherSessions(ctx, userId, keep) });
      for (const feature of API_FEATURES) await api.register(feature, { ctx });
      await api.register(healthRoutes, { ctx, checker });
      await api.register(sessionRoutes, { ctx, store });
      // `/api` itself is no endpoint, but without this the public `/:alias` route would answer it with a page.
      api.all('/', { config: { scope: 'any' } satisfies GateConfig, schema: { hide: true } }, (_req, reply) => reply.callNotFound());
      await api.register(linkImportRoutes, { ctx }); // last in the API document, as ever
    },
    { prefix: '/api' },
  );

  await announceSetup(ctx);
  await reportDuplicateEmails(ctx);
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' })); // liveness: no I/O
  app.get('/ready', { schema: { hide: true } }, async (_req, reply) => {
    const { ready, ...checks } = await checkReadiness(readinessProbes(ctx));
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', ...checks });
  });
  // The public pages' sheet, for the dashboard's previews (the pages inline it under a CSP hash); no alias has a dot.
  app.get(PAGE_STYLE_PATH, { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(PAGE_STYLE),
  );
  // The public side's body rules, for every path outside /api and unrouted ones. Added here, after /api and before
  // the public features: a scope copies its parent's hooks when it is registered.
  app.addHook('onRequest', publicBodyGate(ctx.counters));
  await app.register(metricsRoutes, { ctx });
  metricsPort(app, ctx);
  await app.register(dashboardRoutes, { ctx });
  await app.register(qrCachesPlugin, { ctx });
  await app.register(qrPublicRoutes, { ctx });
  await app.register(campaignPublicRoutes, { ctx });
  await app.register(publicRoutes, { ctx, resolver, store }); // last: it owns the catch-all /:alias
  return app;
}

function readinessProbes(ctx: AppContext) {
  const redis = ctx.redis;
  return { database: () => sql`select 1`.execute(ctx.db), redis: redis && (() => redis.ping()) };
}

async function registerDocs(app: App, ctx: AppContext): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Redirectory API',
        version: '1.0.0',
        description:
          'Short links, branded domains, campaigns, channels, pixels and QR codes. Send `Authorization: Bearer <API_KEY>`, ' +
          'or from the dashboard its session cookie (see the session endpoints; changes need `X-CSRF-Token`, ' +
          `its own budget is ${ctx.config.SESSION_RATE_LIMIT_MAX} requests per window). ` +
          'Failures answer `{"error":1,"message":"…","code":"…"}` (codes: see ErrorBody) with 400 (invalid input), 401 (missing or unknown key), ' +
          '404 (unknown id, including ids of other accounts), 409 (name or alias taken), 413 (body over 1 MB; IMPORT_MAX_BYTES for a CSV import), ' +
          `429 (over ${ctx.config.RATE_LIMIT_MAX} requests per ${ctx.config.RATE_LIMIT_WINDOW_S} s, or ${ctx.config.ACCOUNT_RATE_LIMIT_MAX} ` +
          'for all keys of an account together, with Retry-After).',
      },
      servers: [{ url: ctx.config.BASE_URL }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The dashboard's: on its host only, with X-CSRF-Token on every request that is not GET or HEAD.
          session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(secureDashboard(ctx)) },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
  });
  registerDocsAssets(app, '/docs');
  // The docs are a page like any other: its own CSP (never framed), nosniff and a referrer policy.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Our title, mark and favicon instead of the framework's.
    logo: DOCS_LOGO,
    theme: DOCS_THEME,
    uiConfig: DOCS_UI_CONFIG,
    // Not upgrade-insecure-requests: on a plain-http installation it would send the docs' own assets to https.
    transformStaticCSP: (csp) => csp.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ''),
    uiHooks: {
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Fastify awaits async route hooks; swagger-ui types this one as a callback hook.
      onRequest: async (req, reply) => {
        reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'strict-origin-when-cross-origin');
        // The UI's own copies of the document, answered from the same buffers as /api/openapi.json.
        if (req.routeOptions.url === '/docs/json') return openapi.send(req, reply);
        if (req.routeOptions.url === '/docs/yaml') return openapiYaml.send(req, reply);
      },
    },
  });
  const openapi = new CachedDocument('application/json; charset=utf-8', () => JSON.stringify(app.swagger()));
  const openapiYaml = new CachedDocument('application/x-yaml', () => app.swagger({ yaml: true }));
  app.get('/api/openapi.json', { schema: { hide: true } }, (req, reply) => openapi.send(req, reply));
}
