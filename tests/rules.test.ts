import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { UA } from './helpers/user-agents.js';

let server: TestServer;
let key: string;

// Browsers and devices the conditions tell apart, from the shared list (tests/helpers/user-agents.ts).
const { iphone: IPHONE, linuxFirefox: FIREFOX, windowsChrome: WINDOWS } = UA;
const US = '8.8.8.8';
const DE = '5.9.0.1';

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '1000000', TRUST_PROXY: 'true' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function addLink(body: Record<string, unknown>): Promise<{ id: number; alias: string }> {
  const res = await server.call('POST', '/api/url/add', { key, body });
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id, alias: new URL(res.body.shorturl).pathname.slice(1) };
}

interface As {
  ua?: string;
  ip?: string;
  lang?: string;
}

async function go(path: string, as: As = {}): Promise<string> {
  const headers: Record<string, string> = { 'user-agent': as.ua ?? WINDOWS, 'x-forwarded-for': as.ip ?? '192.0.2.1' };
  if (as.lang) headers['accept-language'] = as.lang;
  const res = await server.visit(path, { headers });
  expect(res.status, res.text).toBe(302);
  return res.headers.location as string;
}

const rule = (url: string, ...conditions: Array<Record<string, unknown>>) => ({ conditions, url });

describe('rule conditions', () => {
  it('query: present, equal to a value, absent', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/default',
      rules: [
        rule('https://example.com/campaign', { type: 'query', name: 'ref', value: 'mail' }),
        rule('https://example.com/any-ref', { type: 'query', name: 'ref' }),
        rule('https://example.com/no-utm', { type: 'query', name: 'utm', absent: true }),
      ],
    });
    expect(await go(`/${alias}?ref=mail`)).toBe('https://example.com/campaign');
    expect(await go(`/${alias}?ref=web`)).toBe('https://example.com/any-ref');
    expect(await go(`/${alias}`)).toBe('https://example.com/no-utm');
    expect(await go(`/${alias}?utm=1`)).toBe('https://example.com/default');
  });

  it('ip: IPv4 and IPv6 networks and single addresses', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/default',
      rules: [
        rule('https://example.com/v4net', { type: 'ip', value: '203.0.113.0/24' }),
        rule('https://example.com/v4one', { type: 'ip', value: '198.51.100.7' }),
        rule('https://example.com/v6net', { type: 'ip', value: '2001:db8::/32' }),
        rule('https://example.com/v6one', { type: 'ip', value: '2001:db9::1' }),
      ],
    });
    expect(await go(`/${alias}`, { ip: '203.0.113.99' })).toBe('https://example.com/v4net');
    expect(await go(`/${alias}`, { ip: '198.51.100.7' })).toBe('https://example.com/v4one');
    expect(await go(`/${alias}`, { ip: '198.51.100.8' })).toBe('https://example.com/default');
    expect(await go(`/${alias}`, { ip: '2001:db8:1::5' })).toBe('https://example.com/v6net');
    expect(await go(`/${alias}`, { ip: '2001:db9::1' })).toBe('https://example.com/v6one');
    expect(await go(`/${alias}`, { ip: '2001:db9::2' })).toBe('https://example.com/default');
  });

  it('date: after, before, and both (UTC)', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/default',
      rules: [
        rule('https://example.com/never', { type: 'date', after: '2000-01-01 00:00:00', before: '2000-01-02 00:00:00' }),
        rule('https://example.com/future', { type: 'date', after: '2999-01-01 00:00:00' }),
        rule('https://example.com/now', { type: 'date', before: '2999-01-01 00:00:00' }),
      ],
    });
    expect(await go(`/${alias}`)).toBe('https://example.com/now');
  });

  it('browser, os, device and language', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/default',
      rules: [
        rule('https://example.com/firefox', { type: 'browser', value: 'firefox' }),
        rule('https://example.com/ios', { type: 'os', value: 'iOS' }),
        rule('https://example.com/mobile', { type: 'device', value: 'mobile' }),
        rule('https://example.com/fr', { type: 'language', value: 'fr' }),
      ],
    });
    expect(await go(`/${alias}`, { ua: FIREFOX })).toBe('https://example.com/firefox');
    expect(await go(`/${alias}`, { ua: IPHONE })).toBe('https://example.com/ios');
    expect(await go(`/${alias}`, { lang: 'fr-CA,fr;q=0.9' })).toBe('https://example.com/fr');
    expect(await go(`/${alias}`, { lang: 'de' })).toBe('https://example.com/default');
  });

  it('country by ISO code or by the name geotarget uses', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/default',
      rules: [
        rule('https://example.com/de', { type: 'country', value: 'DE' }),
        rule('https://example.com/us', { type: 'country', value: 'United States' }),
      ],
    });
    expect(await go(`/${alias}`, { ip: DE })).toBe('https://example.com/de');
    expect(await go(`/${alias}`, { ip: US })).toBe('https://example.com/us');
    expect(await go(`/${alias}`)).toBe('https://example.com/default');
  });
});

describe('rule order and the spec targets', () => {
  it('first match wins, all conditions must hold, rules come before geotarget, and parameters are appended', async () => {
    const rules = [
      rule('https://example.com/both', { type: 'query', name: 'a' }, { type: 'query', name: 'b' }),
      rule('https://example.com/a', { type: 'query', name: 'a' }),
      rule('https://example.com/a-too', { type: 'query', name: 'a' }),
    ];
    const geotarget = [{ location: 'united states', link: 'https://example.com/geo-us' }];
    const { id, alias } = await addLink({ url: 'https://example.com/default', rules, geotarget, parameters: [{ name: 'p', value: '1' }] });
    expect(await go(`/${alias}?a=1&b=2`)).toBe('https://example.com/both?p=1');
    expect(await go(`/${alias}?a=1`)).toBe('https://example.com/a?p=1');
    expect(await go(`/${alias}?a=1`, { ip: US })).toBe('https://example.com/a?p=1');
    expect(await go(`/${alias}`, { ip: US })).toBe('https://example.com/geo-us?p=1');
    const detail = await server.call('GET', `/api/url/${id}`, { key });
    expect(detail.body.details.rules).toEqual(rules);
    expect(detail.body.details.geotarget).toEqual(geotarget);
    expect(detail.body.details).toMatchObject({ split: [], maxvisits: null, expiredurl: '' });
  });

  it('update replaces the rules, keeps them when not sent, and [] removes them', async () => {
    const { id, alias } = await addLink({ url: 'https://example.com/default', rules: [rule('https://example.com/q', { type: 'query', name: 'q' })] });
    await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/default', title: 'x' } });
    expect(await go(`/${alias}?q`)).toBe('https://example.com/q');
    const swap = await server.call('PUT', `/api/url/${id}/update`, {
      key,
      body: { url: 'https://example.com/default', rules: [rule('https://example.com/r', { type: 'query', name: 'r' })] },
    });
    expect(swap.status, swap.text).toBe(200);
    expect(await go(`/${alias}?q`)).toBe('https://example.com/default');
    expect(await go(`/${alias}?r`)).toBe('https://example.com/r');
    await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/default', rules: [] } });
    expect(await go(`/${alias}?r`)).toBe('https://example.com/default');
    expect((await server.call('GET', `/api/url/${id}`, { key })).body.details.rules).toEqual([]);
  });
});

describe('bad input', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'an unknown kind',
      { rules: [rule('https://e.com', { type: 'query', name: 'a' }), rule('https://e.com', { type: 'moon' })] },
      'rules[1].conditions[0]',
    ],
    [
      'a bad network',
      { rules: [rule('https://e.com', { type: 'query', name: 'a' }, { type: 'ip', value: '10.0.0.0/33' })] },
      'rules[0].conditions[1]',
    ],
    ['a bad date', { rules: [rule('https://e.com', { type: 'date', after: 'tomorrow' })] }, 'rules[0].conditions[0]'],
    ['a date without bounds', { rules: [rule('https://e.com', { type: 'date' })] }, 'rules[0].conditions[0]'],
    ['value and absent', { rules: [rule('https://e.com', { type: 'query', name: 'a', value: 'b', absent: true })] }, 'rules[0].conditions[0]'],
    ['a bad language', { rules: [rule('https://e.com', { type: 'language', value: 'french!' })] }, 'rules[0].conditions[0]'],
    ['no conditions', { rules: [{ conditions: [], url: 'https://e.com' }] }, 'rules[0]'],
    ['a rule without url', { rules: [{ conditions: [{ type: 'query', name: 'a' }] }] }, 'rules[0]'],
    ['a bad rule url', { rules: [rule('ftp://e.com', { type: 'query', name: 'a' })] }, 'rules[0].url'],
    ['a one-variant split', { split: [{ url: 'https://e.com', weight: 1 }] }, 'split'],
    [
      'a zero weight',
      {
        split: [
          { url: 'https://e.com/a', weight: 1 },
          { url: 'https://e.com/b', weight: 0 },
        ],
      },
      'weight',
    ],
    ['a bad expiredurl', { expiredurl: 'javascript:alert(1)' }, 'expiredurl'],
  ];
  for (const [name, body, where] of cases) {
    it(`refuses ${name} with 400 naming ${where}`, async () => {
      const res = await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/', ...body } });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toBe(1);
      if (res.body.code === 'rule_invalid') expect(res.body.message).toContain(where);
      else expect(res.body.code).toBe('invalid_field');
    });
  }
});

/** A fixed, seeded visitor: the n-th of a deterministic sequence of addresses and agents. */
function visitor(n: number): As {
  let x = (n + 1) * 2654435761;
  x = (x ^ (x >>> 15)) >>> 0;
  return { ip: `10.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`, ua: `${WINDOWS} seeded/${n % 97}` };
}

async function inParallel<T>(n: number, width: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await run(i);
      }
    }),
  );
  return out;
}

describe('splits', () => {
  it('splits 10,000 seeded visitors by weight within statistical bounds, and each keeps their variant', async () => {
    const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'];
    const weights = [50, 30, 20];
    const { id, alias } = await addLink({ url: 'https://example.com/default', split: urls.map((url, i) => ({ url, weight: weights[i] })) });
    const N = 10_000;
    const got = await inParallel(N, 16, (i) => go(`/${alias}`, visitor(i)));
    for (const [i, url] of urls.entries()) {
      const share = got.filter((u) => u === url).length;
      const p = weights[i]! / 100;
      // Five standard deviations of a binomial count: a fair split never fails, a wrong one always does.
      expect(Math.abs(share - N * p)).toBeLessThan(5 * Math.sqrt(N * p * (1 - p)));
    }
    for (const i of [0, 1, 2, 3, 1234, 9999]) expect(await go(`/${alias}`, visitor(i))).toBe(got[i]);
    await server.ctx.clicks.flush();
    const detail = await server.call('GET', `/api/url/${id}`, { key });
    expect(detail.body.details.split).toEqual(urls.map((url, i) => ({ url, weight: weights[i] })));
    const variants = detail.body.data.variants as Array<{ url: string; clicks: number; uniqueClicks: number }>;
    expect(variants.map((v) => v.url)).toEqual(urls);
    const again = [0, 1, 2, 3, 1234, 9999];
    const expected = urls.map((url) => got.filter((u) => u === url).length + again.filter((j) => got[j] === url).length);
    expect(variants.map((v) => v.clicks)).toEqual(expected);
    expect(variants.reduce((sum, v) => sum + v.uniqueClicks, 0)).toBe(detail.body.data.uniqueClicks);
    // The series of each variant adds up to its clicks; the link's own series to all of them.
    const today = new Date().toISOString().slice(0, 10);
    for (const [n, v] of variants.entries()) {
      const series = await server.call('GET', `/api/url/${id}/clicks?from=${today}&to=${today}&variant=${n}`, { key });
      expect(series.status, series.text).toBe(200);
      expect(series.body.data).toEqual([{ date: today, clicks: v.clicks, uniqueClicks: v.uniqueClicks }]);
    }
    const all = await server.call('GET', `/api/url/${id}/clicks?from=${today}&to=${today}`, { key });
    expect(all.body.data[0].clicks).toBe(N + again.length);
  }, 120_000);

  it('a rule may split too, numbered after the default split', async () => {
    const { id, alias } = await addLink({
      url: 'https://example.com/default',
      split: [
        { url: 'https://example.com/a', weight: 1 },
        { url: 'https://example.com/b', weight: 1 },
      ],
      rules: [
        {
          conditions: [{ type: 'query', name: 'beta' }],
          split: [
            { url: 'https://example.com/x', weight: 1 },
            { url: 'https://example.com/y', weight: 3 },
          ],
        },
      ],
    });
    const got = await inParallel(200, 8, (i) => go(`/${alias}?beta`, visitor(i)));
    expect(new Set(got)).toEqual(new Set(['https://example.com/x', 'https://example.com/y']));
    await server.ctx.clicks.flush();
    const { data } = (await server.call('GET', `/api/url/${id}`, { key })).body;
    expect(data.variants.map((v: { url: string }) => v.url)).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/x',
      'https://example.com/y',
    ]);
    expect(data.variants[2].clicks + data.variants[3].clicks).toBe(200);
    expect(data.variants[0].clicks + data.variants[1].clicks).toBe(0);
    // A variant's clicks are its link's: the account's series counts them once.
    const today = new Date().toISOString().slice(0, 10);
    const links = (await server.call('GET', '/api/urls?limit=1000', { key })).body.data.urls as Array<{ clicks: number }>;
    const account = await server.call('GET', `/api/stats/clicks?from=${today}&to=${today}`, { key });
    expect(account.body.data[0].clicks).toBe(links.reduce((sum, link) => sum + link.clicks, 0));
  });
});

describe('links of the same rules and weights', () => {
  it('each serve their own destinations, as compiled plans share all but them', async () => {
    const routed = (site: string) => ({
      url: `https://${site}/default`,
      rules: [rule(`https://${site}/firefox`, { type: 'browser', value: 'firefox' })],
      split: [
        { url: `https://${site}/a`, weight: 1 },
        { url: `https://${site}/b`, weight: 1 },
      ],
    });
    const one = await addLink(routed('one.example'));
    const two = await addLink(routed('two.example'));
    for (const [{ alias }, site] of [
      [one, 'one.example'],
      [two, 'two.example'],
      [one, 'one.example'],
    ] as const) {
      expect(await go(`/${alias}`, { ua: FIREFOX })).toBe(`https://${site}/firefox`);
      const split = await inParallel(40, 8, (i) => go(`/${alias}`, visitor(i)));
      expect(new Set(split)).toEqual(new Set([`https://${site}/a`, `https://${site}/b`]));
    }
  });

  it('serve every destination of twenty rules, past those a plan holds in fields of its own', async () => {
    const rules = Array.from({ length: 20 }, (_, i) => rule(`https://example.com/rule-${i}`, { type: 'query', name: `r${i}` }));
    const { alias } = await addLink({ url: 'https://example.com/default', rules });
    for (const i of [0, 11, 12, 19]) expect(await go(`/${alias}?r${i}=1`)).toBe(`https://example.com/rule-${i}`);
    expect(await go(`/${alias}`)).toBe('https://example.com/default');
  });
});

describe('maxvisits and expiredurl', () => {
  it('a capped link serves N counted clicks, then the 410 page', async () => {
    const { alias } = await addLink({ url: 'https://example.com/capped', maxvisits: 3 });
    for (let i = 0; i < 3; i++) expect(await go(`/${alias}`)).toBe('https://example.com/capped');
    const res = await server.visit(`/${alias}`, { headers: { 'user-agent': WINDOWS } });
    expect(res.status).toBe(410);
    expect(res.text).toContain('visit limit');
  });

  it('counts the stored clicks: after a flush a fresh read still sees the cap reached', async () => {
    const { id, alias } = await addLink({ url: 'https://example.com/capped', maxvisits: 2, expiredurl: 'https://example.com/gone' });
    expect(await go(`/${alias}`)).toBe('https://example.com/capped');
    expect(await go(`/${alias}`)).toBe('https://example.com/capped');
    await server.ctx.clicks.flush();
    // A change of the link drops every cached copy: what is left is the stored count.
    await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/capped', title: 'again' } });
    expect(await go(`/${alias}`)).toBe('https://example.com/gone');
    const detail = await server.call('GET', `/api/url/${id}`, { key });
    expect(detail.body.data.clicks).toBe(2);
    expect(detail.body.details).toMatchObject({ maxvisits: 2, expiredurl: 'https://example.com/gone' });
  });

  it('an expired link redirects to its expiredurl instead of the 410 page, uncounted', async () => {
    const { id, alias } = await addLink({ url: 'https://example.com/old', expiry: '2001-01-01 00:00:00', expiredurl: 'https://example.com/new' });
    expect(await go(`/${alias}`)).toBe('https://example.com/new');
    await server.call('PUT', `/api/url/${id}/update`, { key, body: { url: 'https://example.com/old', expiredurl: '' } });
    expect((await server.visit(`/${alias}`)).status).toBe(410);
    await server.ctx.clicks.flush();
    expect((await server.call('GET', `/api/url/${id}`, { key })).body.data.clicks).toBe(0);
  });
});
