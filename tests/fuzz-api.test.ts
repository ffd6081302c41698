import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountState, seedAccount, type AccountState, type Seeded } from './helpers/account-state.js';
import { ENDPOINTS, fillPath, ITEM_RESOURCE, label, type Endpoint, type ItemType, type Param } from './helpers/endpoints.js';
import { fuzzParams, fuzzRuns, fuzzTimeout, LEAK, nastyQuery, nastySegment, nastyString, nastyValue, rawJsonBody } from './helpers/fuzz.js';
import { startServer, TEST_HOST, type Reply, type TestServer } from './helpers/server.js';
import { ERROR_CODES } from '../src/lib/errors.js';

/**
 * Property-based fuzzing of every API endpoint: hostile bodies, query strings and path ids. Every answer
 * is `{"error":…}` JSON below 500; a refused request leaves the caller's account exactly as it was (API
 * view and database rows), another account is never touched, and nothing pollutes Object.prototype.
 */
const RUNS = fuzzRuns(20);

interface Caller {
  key: string;
  id: number;
  seeded: Seeded;
}

let server: TestServer;
let me: Caller;
let other: Caller;
let otherBefore: AccountState;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000000', OUTBOUND_TIMEOUT_MS: '500' }); // POST url/{id}/check may reach the internet
  const caller = async (): Promise<Caller> => {
    const user = await server.user();
    return { key: user.apiKey, id: user.id, seeded: await seedAccount(server, user.apiKey) };
  };
  me = await caller();
  other = await caller();
  otherBefore = await accountState(server, other.key, other.id);
}, 60_000);
afterAll(() => server?.close());

/** Whose id a placeholder gets: resolved when sending, so it follows the seeded ids. */
type IdChoice = { owner: 'me' | 'other' } | { raw: string };

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string };

interface FuzzRequest {
  segments: Record<string, IdChoice>;
  query: string;
  body: Body;
}

const idChoice = (param: Param): fc.Arbitrary<IdChoice> => {
  const choices: Array<fc.Arbitrary<IdChoice>> = [
    fc.constant({ owner: 'me' as const }),
    fc.constant({ owner: 'other' as const }),
    fc.constantFrom('999999', '2147483647').map((raw) => ({ raw })),
    nastySegment.map((raw) => ({ raw })),
  ];
  if (param === 'itemType')
    return fc.oneof(
      fc.constantFrom('links', 'bio', 'qr').map((raw) => ({ raw })),
      nastySegment.map((raw) => ({ raw })),
    );
  return fc.oneof(...choices);
};

/** A valid body with some fields swapped for hostile values, some dropped, and hostile extra keys. */
const mutated = (sample: Record<string, unknown>) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, fc.oneof(fc.constant(v), nastyValue, fc.constant(undefined))]))),
      fc.dictionary(nastyString, nastyValue, { maxKeys: 3 }),
    )
    .map(([fields, extra]) => ({ ...extra, ...fields }));

const bodyArb = (endpoint: Endpoint): fc.Arbitrary<Body> =>
  fc.oneof(
    fc.constant({ kind: 'none' as const }),
    (endpoint.body ? mutated(endpoint.body) : fc.dictionary(nastyString, nastyValue, { maxKeys: 4 })).map((value) => ({
      kind: 'json' as const,
      value,
    })),
    nastyValue.map((value) => ({ kind: 'json' as const, value })),
    rawJsonBody.map((text) => ({ kind: 'raw' as const, text, type: 'application/json' })),
    fc
      .tuple(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'application/xml',
          'application/jsonx',
          '*/*',
        ),
      )
      .map(([text, type]) => ({ kind: 'raw' as const, text, type })),
  );

const requestArb = (endpoint: Endpoint): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    segments: fc.record(Object.fromEntries(Object.entries(endpoint.params).map(([name, param]) => [name, idChoice(param)]))),
    query: endpoint.list ? nastyQuery : fc.oneof(fc.constant(''), nastyQuery),
    body: bodyArb(endpoint),
  }) as fc.Arbitrary<FuzzRequest>;

/** A malformed body must be refused before anything happens, so only then may a delete aim at the caller's own data. */
function isMalformed(body: Body): boolean {
  if (body.kind !== 'raw') return false;
  if (body.type !== 'application/json') return true;
  try {
    JSON.parse(body.text);
    return false;
  } catch {
    return true;
  }
}

function pathOf(endpoint: Endpoint, request: FuzzRequest): string {
  const type = request.segments.type && 'raw' in request.segments.type ? request.segments.type.raw : 'links';
  const values: Record<string, string | number> = {};
  for (const [name, param] of Object.entries(endpoint.params)) {
    const choice = request.segments[name]!;
    if ('raw' in choice) {
      values[name] = choice.raw;
      continue;
    }
    let owner = choice.owner;
    if (endpoint.method === 'DELETE' && owner === 'me' && !isMalformed(request.body)) owner = 'other';
    const resource = param === 'item' ? (ITEM_RESOURCE[type as ItemType] ?? 'link') : param;
    values[name] = (owner === 'me' ? me : other).seeded[resource as keyof Seeded] as number;
  }
  return fillPath(endpoint.path, values) + request.query;
}

async function sendFuzzed(endpoint: Endpoint, request: FuzzRequest): Promise<Reply> {
  const path = pathOf(endpoint, request);
  const { body } = request;
  const host = TEST_HOST; // the dashboard's host: the session endpoints answer there only
  if (body.kind === 'none') return server.call(endpoint.method, path, { key: me.key, headers: { host } });
  if (body.kind === 'json') {
    return server.call(endpoint.method, path, {
      key: me.key,
      rawBody: JSON.stringify(body.value) ?? 'null',
      headers: { host, 'content-type': 'application/json' },
    });
  }
  return server.call(endpoint.method, path, { key: me.key, rawBody: body.text, headers: { host, 'content-type': body.type } });
}

function expectEnvelope(res: Reply, what: string, csv = false): void {
  expect(res.status, `${what} → ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (csv && res.status < 400) {
    expect(String(res.headers['content-type']), what).toMatch(/^text\/csv/);
    return;
  }
  expect(String(res.headers['content-type']), what).toContain('application/json');
  if (res.status >= 400) {
    expect(res.body, what).toEqual({ error: 1, message: expect.any(String), code: expect.any(String) });
    expect(ERROR_CODES, what).toContain(res.body.code);
    expect(res.body.message.length, what).toBeGreaterThan(0);
    expect(res.body.message, what).not.toMatch(LEAK);
  } else {
    expect([0, '0'], `${what} → ${res.text.slice(0, 300)}`).toContain(res.body.error);
  }
}

describe.each(ENDPOINTS.map((e) => [label(e), e] as const))('%s', (name, endpoint) => {
  it(
    'answers hostile requests with a JSON error below 500 and changes nothing when it refuses',
    async () => {
      let baseline = await accountState(server, me.key, me.id);
      await fc.assert(
        fc.asyncProperty(requestArb(endpoint), async (request) => {
          const res = await sendFuzzed(endpoint, request);
          const what = `${name} ${pathOf(endpoint, request)} ${JSON.stringify(request.body).slice(0, 300)}`;
          expectEnvelope(res, what, endpoint.csv);
          expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
          if (res.status >= 400) expect(await accountState(server, me.key, me.id), `refused but changed: ${what}`).toEqual(baseline);
          else baseline = await accountState(server, me.key, me.id); // accepted: this is the new state
        }),
        fuzzParams(RUNS),
      );
      expect(await accountState(server, other.key, other.id)).toEqual(otherBefore);
    },
    fuzzTimeout(30_000),
  );
});

it('answers requests refused before routing with the envelope, without echoing them', async () => {
  const long = 'a'.repeat(1200);
  const replies = [
    await server.call('GET', '/api/%ZZ', { key: me.key }),
    await server.call('PUT', `/api/url/%E0%A4%A/update`, { key: me.key, body: { url: 'https://example.com' } }),
    await server.call('POST', `/api/channel/${me.seeded.channel}/assign/${long}/${me.seeded.link}`, { key: me.key }),
    await server.call('GET', '/api/account', { key: me.key, headers: { 'x-padding': 'p'.repeat(20_000) } }),
    await server.call('GET', '/api', { key: me.key }),
    await server.call('GET', '/api/', { key: me.key }),
  ];
  expect(replies.map((r) => r.status)).toEqual([400, 400, 414, 431, 404, 404]);
  for (const res of replies) {
    expectEnvelope(res, res.text);
    expect(res.text).not.toMatch(/%ZZ|%E0|aaaaaaaa|pppp/);
  }
});

it('answers a page number past any offset the database can hold with an empty page', async () => {
  const channel = (await server.call('POST', '/api/channel/add', { key: me.key, body: { name: 'paged' } })).body.id;
  for (const path of ['/api/urls?page=4.775590480936156e%2B67', '/api/qr?page=9007199254740993', `/api/channel/${channel}?page=1e300`]) {
    const res = await server.call('GET', path, { key: me.key });
    expect(res.status, res.text).toBe(200);
    expect(Object.values(res.body.data).find(Array.isArray)).toEqual([]);
  }
});

it('refuses NUL characters in bodies, query strings and paths (PostgreSQL cannot hold them) naming the field', async () => {
  const cases = [
    [server.call('POST', '/api/channel/add', { key: me.key, body: { name: 'a\u0000b' } }), 'The field "name" must not contain NUL characters.'],
    [
      server.call('POST', '/api/qr/add', { key: me.key, body: { type: 'text', data: { text: 'x\u0000' } } }),
      'The field "data.text" must not contain NUL characters.',
    ],
    [
      server.call('POST', '/api/qr/add', { key: me.key, body: { type: 'text', data: { '<b>': 'x\u0000' } } }),
      'The field "data" must not contain NUL characters.',
    ],
    [server.call('GET', '/api/urls?q=%00', { key: me.key }), 'The query parameter "q" must not contain NUL characters.'],
  ] as const;
  for (const [reply, message] of cases) expect((await reply).body).toEqual({ error: 1, message, code: 'invalid_field' });
  const before = await accountState(server, me.key, me.id);
  expect((await server.call('PUT', `/api/url/${me.seeded.link}/update`, { key: me.key, body: { url: 'https://example.com/\u0000' } })).status).toBe(
    400,
  );
  expect(await accountState(server, me.key, me.id)).toEqual(before);
});
