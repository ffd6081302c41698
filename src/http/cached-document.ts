import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

interface Variant {
  body: Buffer;
  etag: string;
  /** The encoding of `body`: identity when compressing failed. */
  encoding: Encoding;
}

/** The encodings a client accepts (q > 0), from its Accept-Encoding header. */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  return accepted;
}

/** If-None-Match names one of the document's tags (any encoding: they are the same document), or `*`. */
function matches(header: string | undefined, tags: string[]): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const bare = tag.trim().replace(/^W\//, '');
    return bare === '*' || tags.includes(bare);
  });
}

/**
 * A large document that never changes while the process runs (the OpenAPI document, 4.2 MB; its YAML, 6.6 MB):
 * built once on its first request, then sent from ready buffers, br or gzip as accepted (compressed off the
 * event loop; a client that accepts one waits for it on the first request rather than get megabytes), with
 * a strong ETag per encoding and 304 on If-None-Match. Only a client that accepts neither gets identity.
 * Sending it anew cost tens of milliseconds of the event loop per request (docs/performance.md#openapi-once).
 */
export class CachedDocument {
  private variants?: Record<Encoding, Promise<Variant>>;
  /** The tags of every encoding (they name the same document), known before the compressed forms are. */
  private tags: string[] = [];

  constructor(
    private readonly type: string,
    private readonly build: () => string | Buffer,
  ) {}

  private prepare(): Record<Encoding, Promise<Variant>> {
    const body = Buffer.from(this.build());
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
    this.tags = ['', '-br', '-gzip'].map((suffix) => `"${hash}${suffix}"`);
    const identity = Promise.resolve({ body, etag: `"${hash}"`, encoding: 'identity' as const });
    const compressed = (encoding: 'br' | 'gzip', made: Promise<Buffer>) =>
      made.then(
        (packed): Variant => ({ body: packed, etag: `"${hash}-${encoding}"`, encoding }),
        () => identity,
      );
    return {
      identity,
      // Quality 6 of 11: 16 KB against 14 KB at 11 for a tenth of the time (36 ms); either way on the threadpool.
      br: compressed('br', brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })),
      gzip: compressed('gzip', gzipAsync(body, { level: 9 })),
    };
  }

  async send(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const variants = (this.variants ??= this.prepare());
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    const variant = await variants[accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : 'identity'];
    reply.header('vary', 'accept-encoding').header('cache-control', 'no-cache').header('etag', variant.etag);
    if (matches(req.headers['if-none-match'], this.tags)) return reply.code(304).send();
    if (variant.encoding !== 'identity') reply.header('content-encoding', variant.encoding);
    return reply.type(this.type).send(variant.body);
  }
}
