import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { answerNotFound } from '../../../http/errors.js';
import { errorPage } from '../../../lib/error-pages.js';
import { ClientBudget, sendTooMany } from './client-budget.js';
import { sendPage } from './send.js';
import type { Counters } from '../../../infra/metrics/counters.js';

/** The only body the public side takes: the password form. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const FORM_LIMIT = 16 * 1024;
/** Public POSTs a client (an IP address; for IPv6 its /64) may send per window: far above a person typing passwords. */
export const POST_BUDGET = 60;
export const POST_WINDOW_S = 60;

export const FORM_ONLY = `Send the password form as ${FORM_TYPE}.`;
export const FORM_TOO_LARGE = 'The request body is larger than 16 KB: this address takes only the password form.';

const isApi = (url: string) => url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?');

function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

const mediaType = (header: string | undefined) => (header ?? '').split(';', 1)[0]!.trim().toLowerCase();

/**
 * Decides on a request's body from its headers, before a byte of it is read, as an onRequest hook of
 * the whole app: outside /api a POST counts against the client's budget (429 page past it) and a body
 * must be the password form of at most 16 KB (415, 413); a chunked one is cut at 16 KB by the form's
 * parser. A path with no route never reads its body, on /api neither: it answers 404 at once.
 */
export function publicBodyGate(counters: Counters) {
  const posts = new ClientBudget('post', POST_BUDGET, POST_WINDOW_S, counters);
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const method = req.method;
    if (method === 'GET' || method === 'HEAD') return done(); // never parsed; the redirect path stays as it was
    const api = isApi(req.url);
    if (!api && method === 'POST') {
      const wait = posts.take(req.ip);
      if (wait > 0) return void sendTooMany(reply, wait);
    }
    if (!hasBody(req)) return done();
    if (!api && mediaType(req.headers['content-type']) !== FORM_TYPE) return void sendPage(reply, 415, errorPage(415, FORM_ONLY));
    if (!api && Number(req.headers['content-length']) > FORM_LIMIT) return void sendPage(reply, 413, errorPage(413, FORM_TOO_LARGE));
    if (req.is404) return answerNotFound(req, reply);
    done();
  };
}
