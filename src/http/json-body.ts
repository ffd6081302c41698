import type { FastifyInstance } from 'fastify';
import { fail } from '../lib/errors.js';
import { markNulFree } from './validation.js';

export const BODY_LIMIT = 1024 * 1024;

/**
 * JSON bodies: clients send `Content-Type: application/json` with an empty body on GET, DELETE and
 * assign, so empty means `{}`. Prototype-pollution keys are dropped, never applied.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    // Called with a callback the parser returns nothing; its type also allows the promise form, hence `void`.
    void parse(req, text, (err, value) => {
      if (err) return done(fail('invalid_json'), undefined);
      markNulFree(text, value);
      done(null, value);
    });
  });
}
