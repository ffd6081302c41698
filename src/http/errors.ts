import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, fail } from '../lib/errors.js';
import { errorPage, NOT_FOUND_PAGE } from '../lib/error-pages.js';
import { PAGE_HEADERS, pageHeaders } from '../lib/html.js';

/** Framework errors that are the caller's doing, as the catalogue's errors (our message, not Fastify's). */
const FRAMEWORK: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => fail('body_too_large', '1 MB'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => fail('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => fail('invalid_request', 'The Content-Length header does not match the body.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => fail('invalid_json'),
  FST_ERR_BAD_URL: () => fail('invalid_request', 'The request path is not valid.'),
  FST_ERR_MAX_PARAM_LENGTH: () => fail('path_too_long'),
  FST_ERR_ASYNC_CONSTRAINT: () => fail('invalid_request', 'The request could not be routed.'),
};

export interface AjvIssue {
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
  const detail = issue.keyword === 'type' ? `must be ${article(String(issue.params.type))}` : (issue.message ?? 'is not valid');
  return `The ${where === 'body' ? 'field' : where} "${field}" ${detail}.`;
}

function article(type: string): string {
  const name = type.replace(/,/g, ' or ');
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/** Any error as the catalogue's: ours as they are, Fastify's and the validator's translated, the rest a 500. */
export function asAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { validationContext?: string };
  if (fe.validation) return fail('invalid_field', validationMessage(fe.validation as AjvIssue[], fe.validationContext));
  if (fe.code && FRAMEWORK[fe.code]) return FRAMEWORK[fe.code]!();
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return new AppError('invalid_request', fe.statusCode, fe.message);
  return fail('internal_error');
}

/** For pages, which show a message and have no use for the code. */
export function statusAndMessage(error: FastifyError | AppError | Error): [number, string] {
  const failure = asAppError(error);
  return [failure.status, failure.message];
}

/** The API's failure envelope: the spec's two keys, plus the catalogue's stable code. */
export const errorBody = (failure: AppError) => ({ error: 1 as const, message: failure.message, code: failure.code });

/**
 * Fastify answers a malformed (`/%ZZ`) or over-long URL before routing, in its own JSON shape echoing the
 * path; given as the `frameworkErrors` option, this answers in ours: the envelope under /api, a page elsewhere.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const failure = asAppError(error);
  if (req.url.startsWith('/api')) {
    reply.status(failure.status).type('application/json; charset=utf-8').send(errorBody(failure));
    return;
  }
  const page = errorPage(failure.status, failure.message);
  reply.status(failure.status).headers(pageHeaders(page.csp)).send(page.html);
}

const CLIENT_ERRORS: Record<string, () => AppError> = {
  HPE_HEADER_OVERFLOW: () => fail('headers_too_large'),
  ERR_HTTP_REQUEST_TIMEOUT: () => fail('request_timeout'),
};

/**
 * Requests Node cannot parse (oversized headers, malformed HTTP) never reach a route; as Fastify's
 * `clientErrorHandler` this answers them with the envelope too (before routing, the path is unknown).
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const failure = CLIENT_ERRORS[err.code ?? '']?.() ?? fail('invalid_request', 'The request is not valid HTTP.');
  const body = JSON.stringify(errorBody(failure));
  const status = failure.status;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const failure = asAppError(error);
    if (failure.status >= 500) req.log.error({ err: error }, 'request failed');
    if (failure.retryAfter) reply.header('retry-after', failure.retryAfter);
    reply.status(failure.status).type('application/json; charset=utf-8').send(errorBody(failure));
  });
  app.setNotFoundHandler(answerNotFound);
}

/** The answer of a path with no route: the envelope under /api, the not-found page elsewhere. */
export function answerNotFound(req: FastifyRequest, reply: FastifyReply): void {
  if (req.url.startsWith('/api')) {
    reply.status(404).send(errorBody(fail('endpoint_not_found')));
  } else {
    reply.status(404).headers(PAGE_HEADERS).header('content-security-policy', NOT_FOUND_PAGE.csp).send(NOT_FOUND_PAGE.html);
  }
}
