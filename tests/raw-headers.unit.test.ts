import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { frontHeaders } from '../src/features/redirect/serve/raw-headers.js';

/** What Node itself makes of the same raw headers: `req.headers` is built by `_addHeaderLine`, pair by pair. */
function nodeHeaders(raw: string[]): Record<string, string | undefined> {
  const message = new IncomingMessage(new Socket()) as IncomingMessage & {
    _addHeaderLine(field: string, value: string, dest: Record<string, string>): void;
  };
  const dest: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) message._addHeaderLine(raw[i]!, raw[i + 1]!, dest);
  return dest;
}

const NAMES = [
  'Host',
  'User-Agent',
  'Accept-Language',
  'Referer',
  'Cookie',
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'Accept',
  'Referrer',
  'X-Forwarded-Proto',
];
const spelling = fc
  .tuple(fc.constantFrom(...NAMES), fc.constantFrom('as-is', 'lower', 'upper', 'mixed'))
  .map(([name, how]) =>
    how === 'lower'
      ? name.toLowerCase()
      : how === 'upper'
        ? name.toUpperCase()
        : how === 'mixed'
          ? name.replace(/[aeiou]/g, (c) => c.toUpperCase())
          : name,
  );
const rawHeaders = fc.array(fc.tuple(spelling, fc.string({ maxLength: 12 })), { maxLength: 12 }).map((pairs) => pairs.flat());

describe('frontHeaders', () => {
  test('reads the headers the lean front needs exactly as req.headers has them, repeats and any case included', () => {
    fc.assert(
      fc.property(rawHeaders, (raw) => {
        const node = nodeHeaders(raw);
        const ours = frontHeaders(raw);
        expect({ ...ours }).toEqual({
          host: node.host,
          userAgent: node['user-agent'],
          acceptLanguage: node['accept-language'],
          referer: node.referer,
          cookie: node.cookie,
          forwardedFor: node['x-forwarded-for'],
          forwardedHost: node['x-forwarded-host'],
        });
      }),
      { numRuns: 2000 },
    );
  });

  test('a browser request: each header found once', () => {
    const raw = ['Host', 'sho.rt', 'User-Agent', 'Mozilla/5.0', 'Accept-Language', 'fr-FR,fr;q=0.8', 'Cookie', 'a=1', 'cookie', 'b=2'];
    expect(frontHeaders(raw)).toMatchObject({
      host: 'sho.rt',
      userAgent: 'Mozilla/5.0',
      acceptLanguage: 'fr-FR,fr;q=0.8',
      cookie: 'a=1; b=2',
      referer: undefined,
    });
  });
});
