import { timingSafeEqual } from 'node:crypto';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { App, Feature } from '../../http/types.js';
import { RATE_SCOPE } from '../../infra/metrics/counters.js';
import { closeListener, listenForMetrics } from '../../infra/metrics/listener.js';

/**
 * GET /metrics on the main port, for `Authorization: Bearer $METRICS_TOKEN` only. Without the token (or with
 * a wrong one) it answers what any unknown path answers, so a scanner learns nothing; unset, there is no route
 * and `/metrics` is an alias like any other (a reserved one: no link has it). docs/decisions/0012-metrics.md.
 */
export const metricsRoutes: Feature = async (app, { ctx }) => {
  const metrics = ctx.metrics;
  const token = ctx.config.METRICS_TOKEN;
  if (!metrics || !token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!authorized(req.headers.authorization, expected)) return notFound(reply);
    const text = await metrics.text();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
};

function authorized(header: string | undefined, expected: Buffer): boolean {
  if (!header) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function notFound(reply: FastifyReply): FastifyReply {
  reply.header('cache-control', 'no-store');
  reply.callNotFound();
  return reply;
}

/**
 * The /api scope's part: each answer's latency by route pattern (never the raw URL) when metrics are on,
 * and every 429 counted either way (an increment). The redirect path is outside /api and has no such hook.
 */
export function observeApi(api: App, ctx: AppContext): void {
  const metrics = ctx.metrics;
  const limited = ctx.counters.rateLimited;
  api.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const status = reply.statusCode;
    if (status === 429) limited[RATE_SCOPE.api]!++;
    metrics?.observeApi(req.method, req.routeOptions.url ?? 'unmatched', status, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * METRICS_PORT outside a cluster: this process listens itself, from the app's start to its close. In a
 * WORKERS=N cluster the primary listens instead (src/cluster.ts), answering the workers' sum.
 */
export function metricsPort(app: App, ctx: AppContext): void {
  const metrics = ctx.metrics;
  const port = ctx.config.METRICS_PORT;
  if (!metrics || port === undefined || cluster.isWorker) return;
  let server: Server | null = null;
  app.addHook('onListen', async () => {
    server = await listenForMetrics(metrics, ctx.config.METRICS_HOST, port, ctx.log);
  });
  app.addHook('onClose', async () => {
    if (server) await closeListener(server);
  });
}
