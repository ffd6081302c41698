import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { PAGE_HEADERS, type RenderedPage } from '../../../lib/html.js';
import type { Decision } from '../decide/decide.js';

/** Redirects are never cached by browsers or proxies, so every click reaches us and is counted. */
const REDIRECT_CACHE = 'private, max-age=0';
/** Pages may depend on the visitor (targeting, password): never stored. */
const PAGE_CACHE = 'no-store';

/**
 * Every header of a public answer, set here only: the lean front writes them on the bare response and
 * the Fastify routes send them through the reply. A page gets its own CSP, nosniff and a referrer policy.
 */
export function decisionHeaders(decision: Decision): OutgoingHttpHeaders {
  if (decision.kind === 'redirect') return { location: decision.location, 'cache-control': REDIRECT_CACHE, 'content-length': 0 };
  const headers: OutgoingHttpHeaders = {
    ...PAGE_HEADERS,
    'content-security-policy': decision.page.csp,
    'cache-control': PAGE_CACHE,
    'content-length': Buffer.byteLength(decision.page.html),
  };
  if (decision.retryAfter) headers['retry-after'] = String(decision.retryAfter);
  if (decision.setCookie) headers['set-cookie'] = decision.setCookie;
  return headers;
}

/** The answer on a bare node:http response, for the lean front: a redirect's headers as Node's flat list, read without a keyed lookup per name. */
export function writeDecision(res: ServerResponse, decision: Decision, head = false): void {
  if (decision.kind === 'redirect') {
    res.writeHead(decision.status, ['location', decision.location, 'cache-control', REDIRECT_CACHE, 'content-length', '0']);
    res.end();
    return;
  }
  res.writeHead(decision.status, decisionHeaders(decision));
  res.end(head ? undefined : decision.page.html);
}

/** The same answer through Fastify. */
export function sendDecision(reply: FastifyReply, decision: Decision): FastifyReply {
  reply.code(decision.status).headers(decisionHeaders(decision));
  return reply.send(decision.kind === 'redirect' ? undefined : decision.page.html);
}

/** A page that is no visit (errors, throttling): never counted. */
export function sendPage(reply: FastifyReply, status: number, page: RenderedPage, retryAfter?: number): FastifyReply {
  return sendDecision(reply, { kind: 'page', status, page, count: false, retryAfter });
}
