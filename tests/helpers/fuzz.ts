import fc from 'fast-check';

/**
 * Hostile values for property-based tests. FUZZ_SEED picks another seed and FUZZ_RUNS scales the runs
 * (e.g. `FUZZ_RUNS=2000 npx vitest run tests/fuzz-api.test.ts` for a long run); CI uses the fixed seed.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20260522);

export function fuzzRuns(fallback: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : fallback;
}

/** Long runs need more than the CI time limit. */
export const fuzzTimeout = (ms: number) => (process.env.FUZZ_RUNS ? 3_600_000 : ms);

export const fuzzParams = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: true });

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE links;--",
  "' OR '1'='1",
  '%00',
  '%',
  '%E0%A4%A',
  '../../etc/passwd',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<b>x</b>',
  'file:///etc/passwd',
  'ftp://example.com/',
  '//evil.example/x',
  '\\\\evil.example\\x',
  'http:evil',
  'http://',
  'https://[::1]:0/',
  'http://127.0.0.1:22/',
  'https://example.com/' + 'a'.repeat(9000),
  'x'.repeat(70_000),
  '\uD800',
  '\uDFFF\uD800',
  '\uFEFF',
  '\u202Eevil',
  'ℌ𝔢𝔩𝔩𝔬',
  '🙂'.repeat(300),
  'e\u0301',
  '\r\nSet-Cookie: a=b',
  'rgb(999,999,999)',
  'rgb(-1,0,0)',
  '#ZZZZZZ',
  '#1234567',
  '2024-02-30 25:61:61',
  '0000-00-00 00:00:00',
  '9999-12-31 23:59:59',
  '1e309',
  'NaN',
  '-1',
  '0',
  '2147483648',
  '9007199254740993',
  'true',
  'null',
  'undefined',
  '{}',
  '[]',
  'links',
  'bio',
  'qr',
  'direct',
  'frame',
  'splash',
  'overlay-1',
  'overlay-0',
  '1',
  '999999999',
  'message',
  'contact',
  'tagmanagerpixel',
  'text',
  'vcard',
  'wifi',
  'sms',
];

const NASTY_NUMBERS = [0, -0, -1, 1, 1.5, -1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324];

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

export const nastyNumber = fc.oneof(fc.constantFrom(...NASTY_NUMBERS), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** Nesting as deep as `depth`, of arrays or objects, around a hostile leaf. */
export const deep = (depth: number) =>
  fc.tuple(fc.boolean(), nastyString).map(([arrays, leaf]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
    return value;
  });

/** Any hostile JSON value: wrong types, huge numbers, long or odd strings, nesting, pollution keys. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.array(nastyNumber, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 200 }).chain(deep) },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}')) },
);

/** Raw request bodies that are not (quite) JSON, or JSON a parser or schema may choke on. */
export const rawJsonBody = fc.oneof(
  fc.constantFrom(
    '{',
    '{"url":',
    '}',
    'nul',
    'null',
    'true',
    '0',
    '-1',
    '1e999',
    '"x"',
    '[]',
    '[{}]',
    '\u0000',
    '{"a":"\u0000"}',
    '\uFEFF{}',
    '{"url":"https://a.example","url":5}',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"a":1,}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":1e400}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    ' '.repeat(5000),
    '{"data":' + '['.repeat(3000) + ']'.repeat(3000) + '}',
    '['.repeat(20_000) + ']'.repeat(20_000),
    '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** encodeURIComponent, with lone surrogates (which it refuses) sent as U+FFFD. */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

/** A path segment: real ids of the caller and of others, unknown ids, and things that are no id at all (URL-encoded). */
export const nastySegment = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '+1',
    '01',
    '2147483648',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    'null',
    '%00',
    '%2e%2e',
    '..',
    '%2F',
    '%20',
    '1%00',
    '__proto__',
    'constructor',
    'a'.repeat(1200),
    '%F0%9F%99%82',
    '%C0%AF',
    '%ZZ',
    '1;1',
    '1,2',
  ),
  nastyString.map(encode),
);

export const LIST_KEYS = ['limit', 'page', 'order', 'q', 'campaign', 'channel', 'domain', '__proto__', 'constructor', 'toString'];

/** A query string: list parameters with hostile values, repeated keys, brackets and broken escapes. */
export const nastyQuery = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...LIST_KEYS), fc.constantFrom('limit[]', 'page[a]', 'q[]'), fc.string({ maxLength: 8 })),
        fc.oneof(nastyString, nastyNumber.map(String)),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`),
  fc.constantFrom(
    '?limit=1&limit=2',
    '?limit=-5',
    '?limit=0',
    '?page=0',
    '?page=-1',
    '?limit=1e400',
    '?limit=99999999999999999999',
    '?limit=abc',
    '?limit=%00',
    '?q=%E0%A4%A',
    '?q=%',
    '?&&&',
    '?=',
    '?limit',
    '?order=click&q=' + 'x'.repeat(5000),
    '?page=2147483648',
  ),
);

/** No stack trace, source path or exception name leaks to a caller. */
export const LEAK = /\n\s+at .+:\d+|node_modules|\/src\/|(?:Type|Range|Reference|Syntax)Error\b|SQLITE_|\bpg_|duplicate key/;
