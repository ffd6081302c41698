import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorPage, NOT_FOUND_PAGE } from '../features/redirect/public-pages.js';
import { AppError, type ErrorKind } from '../lib/errors.js';
import { PAGE_HEADERS, pageHeaders } from '../lib/html.js';

/** The one table from domain error kinds to HTTP status. */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  rateLimited: 429,
  unavailable: 503,
};

/** Framework errors that are the caller's doing, with the message we give instead of Fastify's. */
const FRAMEWORK: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is larger than 1 MB.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Send the request body as JSON with Content-Type: application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length header does not match the body.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The JSON body is empty.'],
  FST_ERR_BAD_URL: [400, 'The request path is not valid.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'The request path is too long.'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'The request could not be routed.'],
};

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query parameter', params: 'path parameter' };

/** Turns the first schema violation into a sentence that names the field. */
export function validationMessage(issues: AjvIssue[], part = 'body'): string {
  const issue = issues[0];
  if (!issue) return 'The request is not valid.';
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = PART_NAMES[part] ?? part;
  if (issue.keyword === 'required') {
    const field = [path, String(issue.params.missingProperty)].filter(Boolean).join('.');
    return `The ${where} field "${field}" is required.`;
  }
  const field = path || (part === 'body' ? 'body' : where);
  const detail = issue.keyword === 'type' ? `must be ${article(String(issue.params.type))}` : issue.message ?? 'is not valid';
  return `The ${where === 'body' ? 'field' : where} "${field}" ${detail}.`;
}

function article(type: string): string {
  const name = type.replace(/,/g, ' or ');
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

export function statusAndMessage(error: FastifyError | AppError | Error): [number, string] {
  if (error instanceof AppError) return [STATUS[error.kind], error.message];
  const fe = error as FastifyError & { validationContext?: string };
  if (fe.validation) return [400, validationMessage(fe.validation as AjvIssue[], fe.validationContext)];
  if (fe.code && FRAMEWORK[fe.code]) return FRAMEWORK[fe.code]!;
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return [fe.statusCode, fe.message];
  return [500, 'Something went wrong on our side. Please try again.'];
}

/**
 * Fastify answers a malformed (`/%ZZ`) or over-long URL before routing, in its own JSON shape echoing the
 * path; given as the `frameworkErrors` option, this answers in ours: the envelope under /api, a page elsewhere.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const [status, message] = statusAndMessage(error);
  if (req.url.startsWith('/api')) {
    reply.status(status).type('application/json; charset=utf-8').send({ error: 1, message });
    return;
  }
  const page = errorPage(status, message);
  reply.status(status).headers(pageHeaders(page.csp)).send(page.html);
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are larger than 16 KB.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/**
 * Requests Node cannot parse (oversized headers, malformed HTTP) never reach a route; as Fastify's
 * `clientErrorHandler` this answers them with the envelope too (before routing, the path is unknown).
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: 1, message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const [status, message] = statusAndMessage(error);
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    reply.status(status).type('application/json; charset=utf-8').send({ error: 1, message });
  });
  app.setNotFoundHandler(answerNotFound);
}

/** The answer of a path with no route: the envelope under /api, the not-found page elsewhere. */
export function answerNotFound(req: FastifyRequest, reply: FastifyReply): void {
  if (req.url.startsWith('/api')) {
    reply.status(404).send({ error: 1, message: 'There is no such API endpoint. See /docs for the reference.' });
  } else {
    reply.status(404).headers(PAGE_HEADERS).header('content-security-policy', NOT_FOUND_PAGE.csp).send(NOT_FOUND_PAGE.html);
  }
}
