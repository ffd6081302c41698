import type { FastifyReply } from 'fastify';
import { PAGE_HEADERS, type RenderedPage } from '../../lib/html.js';
import type { Decision } from './decide.js';

/** Redirects are never cached by browsers or proxies, so every click reaches us and is counted. */
const NO_CACHE = 'private, max-age=0';

export function sendRedirect(reply: FastifyReply, status: number, location: string, setCookie?: string): FastifyReply {
  reply.code(status).header('location', location).header('cache-control', NO_CACHE);
  if (setCookie) reply.header('set-cookie', setCookie);
  return reply.send();
}

/** Every page: its own CSP, nosniff, a referrer policy, and no caching (pages may depend on the visitor). */
export function sendPage(reply: FastifyReply, status: number, page: RenderedPage, retryAfter?: number): FastifyReply {
  reply.code(status).headers(PAGE_HEADERS).header('content-security-policy', page.csp).header('cache-control', 'no-store');
  if (retryAfter) reply.header('retry-after', retryAfter);
  return reply.send(page.html);
}

export function sendDecision(reply: FastifyReply, decision: Decision): FastifyReply {
  return decision.kind === 'redirect'
    ? sendRedirect(reply, decision.status, decision.location, decision.setCookie)
    : sendPage(reply, decision.status, decision.page, decision.retryAfter);
}
