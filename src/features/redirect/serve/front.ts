import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppContext } from '../../../context.js';
import { requestHost } from '../../../http/request-host.js';
import type { MaybePromise } from '../../../lib/maybe-promise.js';
import { isReserved } from '../../../lib/reserved.js';
import type { Lookup, Resolver } from '../resolve/resolver.js';
import { writeDecision } from './send.js';
import { answerVisit } from './visit.js';

/** `/{alias}` with an optional query and nothing Fastify would decode or normalize. */
const PLAIN_ALIAS = /^\/([A-Za-z0-9_-]{1,64})(?:\?|$)/;

/**
 * The lean front of the redirect path: a GET or HEAD of a plain `/{alias}` whose link is already cached
 * (or found by one prepared-statement read) is answered here, without Fastify's per-request work (routing, hooks, reply objects). Everything else —
 * other paths, bio pages, unknown aliases, anything odd — goes to Fastify, which answers the same way (visit.ts).
 * `resolver` is the one the redirect routes use, so both serve from one cache.
 */
export function leanFront(ctx: AppContext, resolver: Resolver, fastify: RequestListener): RequestListener {
  const clientIp = ctx.config.TRUST_PROXY ? forwardedIp : socketIp;
  const hostOf = requestHost(ctx.config.TRUST_PROXY);
  const serve = (req: IncomingMessage, res: ServerResponse, found: Lookup, now: number, host: string) => {
    if (found.kind !== 'link') return fastify(req, res);
    const method = req.method!;
    try {
      const headers = req.headers;
      const decision = answerVisit(ctx, found, {
        method,
        now,
        host,
        ip: clientIp(req),
        cookie: headers.cookie,
        url: req.url,
        userAgent: headers['user-agent'] ?? '',
        acceptLanguage: headers['accept-language'] ?? '',
        referer: headers.referer ?? '',
      });
      // An answer that recorded a click goes out once the click is in the journal (after this turn's write).
      if (decision.count && method === 'GET') ctx.clicks.hold(writeDecision, res, decision);
      else writeDecision(res, decision, method === 'HEAD');
    } catch (err) {
      ctx.log.error({ err }, 'lean redirect failed');
      if (!res.headersSent) fastify(req, res);
    }
  };
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return fastify(req, res);
    const match = PLAIN_ALIAS.exec(req.url ?? '');
    if (!match || isReserved(match[1]!)) return fastify(req, res);
    const host = hostOf(req);
    if (!host) return fastify(req, res);
    const now = Date.now();
    let found: MaybePromise<Lookup>;
    try {
      // On SQLite a miss is read right here; on PostgreSQL wait for it rather than routing through Fastify.
      found = resolver.lookup(host, match[1]!, now);
    } catch {
      return fastify(req, res); // it answers (and logs) a failing read as the catch-all route does
    }
    if (found instanceof Promise)
      found.then(
        (f) => serve(req, res, f, now, host),
        () => fastify(req, res),
      );
    else serve(req, res, found, now, host);
  };
}

function socketIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? '';
}

/** As Fastify's trustProxy: true — the left-most X-Forwarded-For address, the original client. */
function forwardedIp(req: IncomingMessage): string {
  const header = req.headers['x-forwarded-for'];
  if (typeof header !== 'string' || header === '') return socketIp(req);
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.slice(0, comma)).trim();
}
