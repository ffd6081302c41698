// The isolation scenario's floods (issue 38, items 1–6), each by account A (or `quiet`, an account with no
// visits) against a fresh server while account B is measured (bench/lib/isolation-victim.mjs). Each answers
// what it saw: answers by status and a few counts. Every request has a deadline (lib/call.mjs).
import { Agent } from 'node:http';
import { api, call, left, loop } from './call.mjs';
import { BENCH_HOST } from './proc.mjs';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
/** Rate limits out of the way, today's and those the fixes add, so a flood measures its own item's cost. */
const UNLIMITED = { RATE_LIMIT_MAX: '1000000000', ACCOUNT_RATE_LIMIT_MAX: '1000000000' };
/** The background link checker on, every target due about every second. */
const CHECKING = { HEALTH_INTERVAL_S: '1' };
/** How many keys account A tries to hold (the attacker minted 124). */
const KEYS = 124;

const hook = (f, url, events) => api(f.port, f.a.key, 'POST', '/api/webhook/add', { url, events }, left(f.until));
const addLink = (f, body) => api(f.port, f.a.key, 'POST', '/api/url/add', body, left(f.until));

/** A link with the most destinations allowed: its URL, a 10-way split and 20 rules of a 10-way split each (211). */
function widest(base) {
  const split = (tag) => Array.from({ length: 10 }, (_, i) => ({ url: `${base}/${tag}/${i}`, weight: 1 }));
  const rules = Array.from({ length: 20 }, (_, r) => ({ conditions: [{ type: 'query', name: 'r', value: String(r) }], split: split(`r${r}`) }));
  return { url: `${base}/main`, split: split('s'), rules };
}

/** Keys of A made by the keys it has, wave after wave, until KEYS or until none more is given (a limit's 4xx). */
async function mintKeys(f) {
  const keys = [f.a.key];
  const refused = {};
  for (let wave = 0; keys.length < KEYS && performance.now() < f.until; wave++) {
    const makers = keys.slice(0, KEYS - keys.length);
    const made = await Promise.all(
      makers.map((key, i) => api(f.port, key, 'POST', '/api/key/add', { name: `flood-${wave}-${i}`, scopes: ['*'] }, left(f.until))),
    );
    for (const r of made) {
      if (r.json?.key) keys.push(r.json.key);
      else refused[r.status] = (refused[r.status] ?? 0) + 1;
    }
    if (made.every((r) => !r.json?.key)) break;
  }
  return { keys, refused };
}

export const FLOODS = {
  /** 1: A's 10 webhooks and its links' destinations are a tarpit; A makes links, visits them and asks for checks. */
  tarpit: {
    db: 'plain',
    env: { ...UNLIMITED, ...CHECKING },
    setup: async (f) => {
      const tarpit = f.world.tarpit.url;
      for (let i = 0; i < 10; i++) await hook(f, `${tarpit}/hook/${i}`, ['link.created', 'link.clicked', 'link.health']);
      const links = [];
      for (let i = 0; i < 4; i++) links.push((await addLink(f, { url: `${tarpit}/dest/${i}` })).json ?? { id: 0, shorturl: 'http://x/none' });
      return links;
    },
    run: async (f, links) => {
      const tarpit = f.world.tarpit.url;
      const visit = { host: BENCH_HOST, 'user-agent': BROWSER };
      const statuses = await Promise.all([
        loop(2, f.until, (i, n) => addLink(f, { url: `${tarpit}/new/${i}/${n}` })),
        loop(2, f.until, (i, n) => api(f.port, f.a.key, 'POST', `/api/url/${links[n % 4].id}/check`, undefined, left(f.until))),
        loop(2, f.until, (i, n) => call(f.port, { path: new URL(links[n % 4].shorturl).pathname, headers: visit, timeoutMs: left(f.until) })),
      ]);
      return { statuses: merge(statuses), held: f.world.tarpit.held() };
    },
  },
  /** 2: 4 parallel exports of all visits by an account with none, over the whole log. */
  export: {
    db: 'log',
    env: UNLIMITED,
    run: async (f) => ({
      statuses: await loop(4, f.until, () =>
        call(f.port, { path: '/api/visits/export', headers: { authorization: `Bearer ${f.quiet.key}` }, timeoutMs: left(f.until) }),
      ),
    }),
  },
  /** 3: 3 links of 211 destinations each on a host that refuses, checked in the background and on request, 2 at a time. */
  destinations: {
    db: 'plain',
    env: { ...UNLIMITED, ...CHECKING },
    setup: async (f) => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await addLink(f, widest(`${f.world.dead}/l${i}`))).json?.id);
      return ids;
    },
    run: async (f, ids) => {
      return {
        statuses: await loop(2, f.until, (i, n) => api(f.port, f.a.key, 'POST', `/api/url/${ids[n % ids.length]}/check`, undefined, left(f.until))),
      };
    },
  },
  /** 4: 50 webhooks of A hear link.clicked (a receiver that answers at once); anonymous visits to A's distinct links. */
  clicks: {
    db: 'log',
    env: UNLIMITED,
    setup: async (f) => {
      for (let i = 0; i < 50; i++) await hook(f, `${f.world.sink.url}/clicked/${i}`, ['link.clicked']);
    },
    run: async (f) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      let next = 0;
      const headers = { host: BENCH_HOST, 'user-agent': BROWSER };
      const statuses = await loop(8, f.until, () => call(f.port, { path: `/a${next++ % f.links}`, headers, agent, timeoutMs: left(f.until) }));
      agent.destroy();
      return { statuses, visits: next, sunk: f.world.sunk() };
    },
  },
  /** 5: A mints up to 124 keys (a limit may refuse some) and every key hammers the API under the default limits. */
  keys: {
    db: 'log',
    env: {},
    setup: mintKeys,
    run: async (f, { keys, refused }) => {
      const paths = ['/api/urls?limit=100', `/api/url/${f.a.deepId}/visits?page=10&limit=1000`];
      const statuses = await loop(keys.length, f.until, (i, n) =>
        call(f.port, { path: paths[n % paths.length], headers: { authorization: `Bearer ${keys[i]}` }, timeoutMs: left(f.until) }),
      );
      return { statuses, keys: keys.length, refused };
    },
  },
  /** 6: 4 parallel loops over deep visit pages (400 to 499 of 1000) of A's link with 500,000 logged visits. */
  deep_pages: {
    db: 'log',
    env: UNLIMITED,
    run: async (f) => ({
      statuses: await loop(4, f.until, (i, n) =>
        call(f.port, {
          path: `/api/url/${f.a.deepId}/visits?page=${400 + ((i * 25 + n) % 100)}&limit=1000`,
          headers: { authorization: `Bearer ${f.a.key}` },
          timeoutMs: left(f.until),
        }),
      ),
    }),
  },
};

function merge(list) {
  const all = {};
  for (const s of list) for (const [k, v] of Object.entries(s)) all[k] = (all[k] ?? 0) + v;
  return all;
}
