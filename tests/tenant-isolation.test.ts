import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountState, seedAccount, type Seeded } from './helpers/account-state.js';
import { ENDPOINTS, fillPath, ITEM_RESOURCE, label, type Endpoint, type ItemType, type Param } from './helpers/endpoints.js';
import { startServer, type TestServer } from './helpers/server.js';

/** Every id-taking endpoint, and every reference to another row a link can make, across two accounts. */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server?.close());

describe('tenant isolation', () => {
  interface Tenant {
    key: string;
    id: number;
    seeded: Seeded;
  }
  let me: Tenant;
  let them: Tenant;
  const tenant = async (): Promise<Tenant> => {
    const user = await server.user();
    return { key: user.apiKey, id: user.id, seeded: await seedAccount(server, user.apiKey) };
  };
  beforeAll(async () => {
    me = await tenant();
    them = await tenant();
  });

  type Role = 'own' | 'foreign' | 'unknown';
  /** Valid bodies, so that only the ids decide the answer. */
  const BODIES: Record<string, unknown> = {
    '/api/domain/:id/update': { redirectroot: '' },
    '/api/splash/:id/update': { name: 'x' },
    '/api/overlay/:id/update': { name: 'x' },
    '/api/bio/:id/update': { name: 'x' },
    '/api/campaign/:id/update': { name: 'x' },
    '/api/channel/:id/update': { name: 'x' },
    '/api/url/:id/update': { url: 'https://example.com/x' },
    '/api/pixel/:id/update': { tag: 'x' },
    '/api/qr/:id/update': { data: 'x' },
    '/api/webhook/:id/update': { events: ['link.created'] },
  };

  /** Every assignment of roles to an endpoint's id placeholders except all-own; item types are tried each. */
  function cases(endpoint: Endpoint): Array<{ path: string; what: string }> {
    const names = Object.keys(endpoint.params).filter((n) => endpoint.params[n] !== 'itemType');
    const types: Array<ItemType | undefined> = Object.values(endpoint.params).includes('itemType') ? ['links', 'bio', 'qr'] : [undefined];
    const out: Array<{ path: string; what: string }> = [];
    const roles: Role[] = ['own', 'foreign', 'unknown'];
    for (const type of types) {
      for (let n = 0; n < roles.length ** names.length; n++) {
        const assigned = names.map((_, i) => roles[Math.floor(n / roles.length ** i) % roles.length]!);
        if (assigned.every((r) => r === 'own')) continue;
        const values: Record<string, string | number> = type ? { type } : {};
        names.forEach((name, i) => {
          const param = endpoint.params[name] as Param;
          const resource = param === 'item' ? ITEM_RESOURCE[type!] : param;
          const role = assigned[i]!;
          values[name] = role === 'unknown' ? 999999 : (role === 'own' ? me : them).seeded[resource as keyof Seeded];
        });
        out.push({ path: fillPath(endpoint.path, values), what: `${label(endpoint)} ${type ?? ''} ${assigned.join('+')}` });
      }
    }
    return out;
  }

  it('answers 404 on every id-taking endpoint for every mix of own, foreign and unknown ids, and changes nothing', async () => {
    const mine = await accountState(server, me.key, me.id);
    const theirs = await accountState(server, them.key, them.id);
    let checked = 0;
    for (const endpoint of ENDPOINTS.filter((e) => Object.keys(e.params).length > 0)) {
      for (const { path, what } of cases(endpoint)) {
        const body = BODIES[endpoint.path];
        const res = await server.call(endpoint.method, path, { key: me.key, ...(body ? { body } : {}) });
        expect(res.status, what).toBe(404);
        expect(res.body, what).toEqual({ error: 1, message: expect.stringMatching(/not found/), code: 'not_found' });
        expect(await accountState(server, them.key, them.id), what).toEqual(theirs);
        expect(await accountState(server, me.key, me.id), what).toEqual(mine);
        checked++;
      }
    }
    expect(checked).toBe(126); // 35 single-id endpoints × 2, campaign assign 8, channel assign and remove 3 types × 8 each
  });

  it("refuses another account's pixels, campaign, channel, splash page, overlay and domain named in a link", async () => {
    const domains = await server.call('GET', '/api/domains', { key: them.key });
    const theirHost = new URL(domains.body.data.domains[0].domain).host;
    const url = 'https://example.com/ref';
    const refs = [
      { pixels: [them.seeded.pixel] },
      { pixels: [me.seeded.pixel, them.seeded.pixel] },
      { campaign: them.seeded.campaign },
      { channel: them.seeded.channel },
      { type: String(them.seeded.splash) },
      { type: `overlay-${them.seeded.overlay}` },
      { domain: theirHost },
    ];
    const mine = await accountState(server, me.key, me.id);
    const theirs = await accountState(server, them.key, them.id);
    for (const ref of refs) {
      const add = await server.call('POST', '/api/url/add', { key: me.key, body: { url, ...ref } });
      const update = await server.call('PUT', `/api/url/${me.seeded.link}/update`, { key: me.key, body: { url, ...ref } });
      for (const res of ref.type?.startsWith('overlay') ? [add] : [add, update]) {
        expect(res.status, JSON.stringify(ref)).toBe(400);
        expect(res.body.error).toBe(1);
      }
    }
    expect(await accountState(server, me.key, me.id)).toEqual(mine);
    expect(await accountState(server, them.key, them.id)).toEqual(theirs);
    // Nothing of theirs shows in any of my lists or details.
    const shown = JSON.stringify(mine.api);
    for (const alias of [them.seeded.linkAlias, them.seeded.bioAlias, them.seeded.qrSlug, them.seeded.campaignSlug, theirHost])
      expect(shown).not.toContain(alias);
  });
});
