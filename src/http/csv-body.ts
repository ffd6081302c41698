import type { FastifyInstance } from 'fastify';
import { fail } from '../lib/errors.js';

/** The largest CSV file an import takes in one request. */
export const CSV_BODY_LIMIT = 50 * 1024 * 1024;
export const CSV_BODY_LIMIT_TEXT = '50 MB';

/** What spreadsheets and browsers send a .csv file as (Windows browsers: application/vnd.ms-excel). */
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'];

const notCsv = () => fail('unsupported_media_type', 'Send the CSV file as the request body with Content-Type: text/csv.');

/**
 * CSV bodies as a Buffer, up to CSV_BODY_LIMIT (the API's JSON limit stays 1 MB elsewhere); any other
 * type but JSON answers 415. Register it inside the import route's own scope only.
 */
export function registerCsvBody(scope: FastifyInstance): void {
  scope.addContentTypeParser(CSV_TYPES, (req, payload, done) => {
    if (Number(req.headers['content-length']) > CSV_BODY_LIMIT) return done(fail('body_too_large', CSV_BODY_LIMIT_TEXT), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= CSV_BODY_LIMIT) chunks.push(chunk);
      else finish(fail('body_too_large', CSV_BODY_LIMIT_TEXT));
    });
    payload.on('end', () => finish(null, Buffer.concat(chunks)));
    payload.on('error', (error) => finish(error));
  });
  scope.addContentTypeParser('*', (_req, _payload, done) => done(notCsv(), undefined));
}

/** The parsed body when it was CSV; a JSON body (parsed by the JSON parser) is refused here. */
export function csvBodyOf(body: unknown): Buffer {
  if (!Buffer.isBuffer(body)) throw notCsv();
  return body;
}
