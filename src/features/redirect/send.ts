import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { PAGE_HEADERS, type RenderedPage } from '../../lib/html.js';
import type { Decision } from './decide.js';

/** Redirects are never cached by browsers or proxies, so every click reaches us and is counted. */
const REDIRECT_CACHE = 'private, max-age=0';
/** Pages may depend on the visitor (targeting, password): never stored. */
const PAGE_CACHE = 'no-store';

export function sendRedirect(reply: FastifyReply, status: number, location: string, setCookie?: string): FastifyReply {
  reply.code(status).header('location', location).header('cache-control', REDIRECT_CACHE);
  if (setCookie) reply.header('set-cookie', setCookie);
  return reply.send();
}

/** Every page: its own CSP, nosniff and a referrer policy. */
export function sendPage(reply: FastifyReply, status: number, page: RenderedPage, retryAfter?: number, setCookie?: string): FastifyReply {
  reply.code(status).headers(PAGE_HEADERS).header('content-security-policy', page.csp).header('cache-control', PAGE_CACHE);
  if (retryAfter) reply.header('retry-after', retryAfter);
  if (setCookie) reply.header('set-cookie', setCookie);
  return reply.send(page.html);
}

export function sendDecision(reply: FastifyReply, decision: Decision): FastifyReply {
  return decision.kind === 'redirect'
    ? sendRedirect(reply, decision.status, decision.location, decision.setCookie)
    : sendPage(reply, decision.status, decision.page, decision.retryAfter, decision.setCookie);
}

/** The same answer written on a bare node:http response, for a lean front handler. */
export function writeDecision(res: ServerResponse, decision: Decision, head = false): void {
  if (decision.kind === 'redirect') {
    res.writeHead(decision.status, decision.setCookie
      ? { location: decision.location, 'cache-control': REDIRECT_CACHE, 'set-cookie': decision.setCookie, 'content-length': 0 }
      : { location: decision.location, 'cache-control': REDIRECT_CACHE, 'content-length': 0 });
    res.end();
    return;
  }
  const headers: Record<string, string | number> = {
    ...PAGE_HEADERS, 'content-security-policy': decision.page.csp, 'cache-control': PAGE_CACHE,
    'content-length': Buffer.byteLength(decision.page.html),
  };
  if (decision.retryAfter) headers['retry-after'] = decision.retryAfter;
  if (decision.setCookie) headers['set-cookie'] = decision.setCookie;
  res.writeHead(decision.status, headers);
  res.end(head ? undefined : decision.page.html);
}
