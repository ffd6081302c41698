import type { FastifyInstance } from 'fastify';
import { fail } from '../lib/errors.js';

const MB = 1024 * 1024;

/** A byte limit as people read it: "20 MB", "64 KB", or the bytes when it is no whole number of either. */
export function sizeText(bytes: number): string {
  if (bytes % MB === 0) return `${bytes / MB} MB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

/** What spreadsheets and browsers send a .csv file as (Windows browsers: application/vnd.ms-excel). */
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'];

const notCsv = () => fail('unsupported_media_type', 'Send the CSV file as the request body with Content-Type: text/csv.');

/**
 * CSV bodies as a Buffer, up to `maxBytes` (IMPORT_MAX_BYTES; the API's JSON limit stays 1 MB elsewhere): a
 * larger Content-Length is refused before a byte is read, and a body without one (chunked) as soon as it
 * passes the limit, with 413 import_too_large. Any other type but JSON answers 415. Register it inside the
 * import route's own scope only.
 */
export function registerCsvBody(scope: FastifyInstance, maxBytes: number): void {
  const tooLarge = () => fail('import_too_large', sizeText(maxBytes));
  scope.addContentTypeParser(CSV_TYPES, (req, payload, done) => {
    const declared = Number(req.headers['content-length']);
    if (declared > maxBytes) return done(tooLarge(), undefined);
    // With a Content-Length the body is copied into place chunk by chunk: one Buffer.concat of 20 MB at the
    // end held the event loop for a third of a second here (page faults of the fresh allocation).
    const whole = Number.isInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      if (settled) return;
      // Node's parser never passes more than the Content-Length; a chunked body is counted here.
      if (!whole && size + chunk.length > maxBytes) {
        chunks.length = 0;
        return finish(tooLarge());
      }
      if (whole) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    });
    payload.on('end', () => finish(null, whole ? whole.subarray(0, size) : Buffer.concat(chunks)));
    payload.on('error', (error) => finish(error));
  });
  scope.addContentTypeParser('*', (_req, _payload, done) => done(notCsv(), undefined));
}

/** The parsed body when it was CSV; a JSON body (parsed by the JSON parser) is refused here. */
export function csvBodyOf(body: unknown): Buffer {
  if (!Buffer.isBuffer(body)) throw notCsv();
  return body;
}
