import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLink } from './helpers/grouping-fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let me: { id: number; apiKey: string; username: string };
let other: { id: number; apiKey: string; username: string };
let base: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  me = await server.user();
  other = await server.user();
  base = server.config.BASE_URL;
});
afterAll(() => server.close());

const makeLink = (owner: { apiKey: string }, fields: Parameters<typeof createLink>[2] = {}) => createLink(server, owner.apiKey, fields);

const add = (key: string, body: unknown) => server.call('POST', '/api/campaign/add', { key, body });
const assign = (key: string, campaignId: number, linkId: number) =>
  server.call('POST', `/api/campaign/${campaignId}/assign/${linkId}`, { key, rawBody: '', headers: { 'content-type': 'application/json' } });

describe('campaign add', () => {
  it('answers the exact shape, with the name under domain and campaign, rotator false without slug', async () => {
    const res = await add(me.apiKey, { name: 'Spring Sale 2024!' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['campaign', 'domain', 'error', 'id', 'list', 'public', 'rotator']);
    expect(res.body).toEqual({
      error: 0,
      id: expect.any(Number),
      domain: 'Spring Sale 2024!',
      campaign: 'Spring Sale 2024!',
      public: false,
      rotator: false,
      list: `${base}/u/${me.username}/spring-sale-2024-${res.body.id}`,
    });
  });

  it('builds rotator and list URLs from the slug', async () => {
    const res = await add(me.apiKey, { name: 'With slug', slug: 'with-slug_1', public: true });
    expect(res.body).toMatchObject({ public: true, rotator: `${base}/r/with-slug_1`, list: `${base}/u/${me.username}/with-slug_1-${res.body.id}` });
  });

  it('names a nameless campaign "Campaign N" and never collides', async () => {
    const user = await server.user();
    const first = await add(user.apiKey, {});
    const second = await add(user.apiKey, { name: '' });
    expect(first.body.campaign).toBe('Campaign 1');
    expect(second.body.campaign).toBe('Campaign 2');
    const list = await server.call('GET', '/api/campaigns', { key: user.apiKey });
    expect(list.body.data.campaigns.map((c: any) => c.name).sort()).toEqual(['Campaign 1', 'Campaign 2']);
  });

  it('uses "campaign" before the dash when the name has nothing URL-safe', async () => {
    const res = await add(me.apiKey, { name: '★★★' });
    expect(res.body.list).toBe(`${base}/u/${me.username}/campaign-${res.body.id}`);
  });

  it('refuses bad input with 400 naming the problem', async () => {
    for (const [body, word] of [
      [{ name: 'x', slug: 'ab' }, 'slug'],
      [{ name: 'x', slug: 'has space' }, 'slug'],
      [{ name: 'x', slug: 'a/b/c' }, 'slug'],
      [{ name: 5 }, 'name'],
      [{ name: 'x', public: 'yes' }, 'public'],
      [{ name: 'x'.repeat(101) }, 'name'],
    ] as const) {
      const res = await add(me.apiKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        error: 1,
        message: expect.stringContaining(word),
        code: expect.stringMatching(/_invalid$|^invalid_field$|^name_required$/),
      });
    }
  });

  it('refuses a taken name (per account) and a taken slug (across accounts) with 409', async () => {
    await add(me.apiKey, { name: 'Unique name', slug: 'taken-slug' });
    const sameName = await add(me.apiKey, { name: 'Unique name' });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ error: 1, message: 'You already have a campaign with that name.', code: 'campaign_name_taken' });
    expect((await add(other.apiKey, { name: 'Unique name' })).status).toBe(200);
    const slug = await add(other.apiKey, { name: 'Another', slug: 'taken-slug' });
    expect(slug.status).toBe(409);
    expect(slug.body.error).toBe(1);
  });

  it('requires an API key', async () => {
    expect((await server.call('POST', '/api/campaign/add', { body: { name: 'x' } })).status).toBe(401);
  });
});

describe('campaign list', () => {
  it('lists only the caller campaigns with the exact entry keys and error "0"', async () => {
    const user = await server.user();
    const made = await add(user.apiKey, { name: 'Listed', slug: `listed${process.pid}` });
    await add(other.apiKey, { name: 'Not mine' });
    const res = await server.call('GET', '/api/campaigns?limit=10&page=1', { key: user.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      error: '0',
      data: {
        result: 1,
        perpage: 10,
        currentpage: 1,
        nextpage: 0,
        maxpage: 1,
        campaigns: [{ id: made.body.id, name: 'Listed', public: false, rotator: made.body.rotator, list: made.body.list }],
      },
    });
  });

  it('pages', async () => {
    const user = await server.user();
    for (let i = 0; i < 3; i++) await add(user.apiKey, { name: `P${i}` });
    const res = await server.call('GET', '/api/campaigns?limit=2&page=1', { key: user.apiKey });
    expect(res.body.data).toMatchObject({ result: 3, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 2 });
    expect(res.body.data.campaigns).toHaveLength(2);
  });
});

describe('campaign update', () => {
  it('renames, keeps or removes the slug and keeps public when omitted', async () => {
    const made = await add(me.apiKey, { name: 'Before', slug: 'before-slug', public: true });
    const id = made.body.id;
    const renamed = await server.call('PUT', `/api/campaign/${id}/update`, { key: me.apiKey, body: { name: 'After' } });
    expect(renamed.status).toBe(200);
    expect(Object.keys(renamed.body).sort()).toEqual(['campaign', 'domain', 'error', 'id', 'list', 'public', 'rotator']);
    expect(renamed.body).toEqual({
      error: 0,
      id,
      domain: 'After',
      campaign: 'After',
      public: true,
      rotator: `${base}/r/before-slug`,
      list: `${base}/u/${me.username}/before-slug-${id}`,
    });
    const cleared = await server.call('PUT', `/api/campaign/${id}/update`, { key: me.apiKey, body: { name: 'After', slug: '', public: false } });
    expect(cleared.body).toMatchObject({ rotator: false, public: false, list: `${base}/u/${me.username}/after-${id}` });
    await server.call('PUT', `/api/campaign/${id}/update`, { key: me.apiKey, body: { name: 'After', slug: 'again-slug' } });
    const nulled = await server.call('PUT', `/api/campaign/${id}/update`, { key: me.apiKey, body: { name: 'After', slug: null } });
    expect(nulled.body.rotator).toBe(false);
  });

  it('requires a name and refuses taken names and slugs', async () => {
    const a = await add(me.apiKey, { name: 'Upd A', slug: 'upd-a-slug' });
    const b = await add(me.apiKey, { name: 'Upd B' });
    const path = `/api/campaign/${b.body.id}/update`;
    const missing = await server.call('PUT', path, { key: me.apiKey, body: { slug: 'x-y-z' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('name');
    expect((await server.call('PUT', path, { key: me.apiKey, body: { name: '   ' } })).status).toBe(400);
    expect((await server.call('PUT', path, { key: me.apiKey, body: { name: 'Upd B', slug: '!!' } })).status).toBe(400);
    const name = await server.call('PUT', path, { key: me.apiKey, body: { name: 'Upd A' } });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe('You already have a campaign with that name.');
    expect((await server.call('PUT', path, { key: me.apiKey, body: { name: 'Upd B', slug: 'upd-a-slug' } })).status).toBe(409);
    const same = await server.call('PUT', `/api/campaign/${a.body.id}/update`, { key: me.apiKey, body: { name: 'Upd A', slug: 'upd-a-slug' } });
    expect(same.status).toBe(200);
  });
});

describe('ownership', () => {
  it('answers 404 for another account campaign on update, delete and assign, and for unknown ids', async () => {
    const theirs = await add(other.apiKey, { name: 'Theirs' });
    const mine = await add(me.apiKey, { name: 'Mine for 404' });
    const myLink = await makeLink(me);
    const theirLink = await makeLink(other);
    const attempts = [
      server.call('PUT', `/api/campaign/${theirs.body.id}/update`, { key: me.apiKey, body: { name: 'Stolen' } }),
      server.call('DELETE', `/api/campaign/${theirs.body.id}/delete`, { key: me.apiKey }),
      assign(me.apiKey, theirs.body.id, myLink.id),
      assign(me.apiKey, mine.body.id, theirLink.id),
      assign(me.apiKey, theirs.body.id, theirLink.id),
      assign(me.apiKey, 999999, myLink.id),
      assign(me.apiKey, mine.body.id, 999999),
      server.call('PUT', '/api/campaign/999999/update', { key: me.apiKey, body: { name: 'x' } }),
      server.call('DELETE', '/api/campaign/999999/delete', { key: me.apiKey }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 1, message: expect.stringMatching(/not found/), code: 'not_found' });
    }
    const still = await server.call('GET', '/api/campaigns?limit=100', { key: other.apiKey });
    expect(still.body.data.campaigns.find((c: any) => c.id === theirs.body.id).name).toBe('Theirs');
    const link = await server.ctx.db.selectFrom('links').select('campaign_id').where('id', '=', theirLink.id).executeTakeFirstOrThrow();
    expect(link.campaign_id).toBeNull();
  });

  it('refuses a non-integer id with 400', async () => {
    expect((await server.call('DELETE', '/api/campaign/abc/delete', { key: me.apiKey })).status).toBe(400);
  });
});

describe('assign and delete', () => {
  it('assigns with a message (idempotently) and delete keeps the links outside any campaign', async () => {
    const made = await add(me.apiKey, { name: 'To delete', slug: 'to-delete' });
    const link = await makeLink(me);
    const first = await assign(me.apiKey, made.body.id, link.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ error: 0, message: expect.any(String) });
    expect((await assign(me.apiKey, made.body.id, link.id)).status).toBe(200);
    expect((await server.visit('/r/to-delete')).status).toBe(302);
    const del = await server.call('DELETE', `/api/campaign/${made.body.id}/delete`, { key: me.apiKey });
    expect(del.body).toEqual({ error: 0, message: expect.any(String) });
    const row = await server.ctx.db.selectFrom('links').select('campaign_id').where('id', '=', link.id).executeTakeFirst();
    expect(row).toEqual({ campaign_id: null });
    expect((await server.visit('/r/to-delete')).status).toBe(404);
    expect((await server.call('DELETE', `/api/campaign/${made.body.id}/delete`, { key: me.apiKey })).status).toBe(404);
  });
});

describe('rotator /r/{slug}', () => {
  async function rotatorWith(count: number, slug: string) {
    const made = await add(me.apiKey, { name: `Rotator ${slug}`, slug });
    const links = [];
    for (let i = 0; i < count; i++) {
      const link = await makeLink(me);
      await assign(me.apiKey, made.body.id, link.id);
      links.push(link);
    }
    return { id: made.body.id as number, links };
  }

  async function spread(slug: string, requests: number) {
    const counts = new Map<string, number>();
    for (let i = 0; i < requests; i++) {
      const res = await server.visit(`/r/${slug}`);
      expect(res.status).toBe(302);
      const location = String(res.headers.location);
      counts.set(location, (counts.get(location) ?? 0) + 1);
    }
    return counts;
  }

  it('spreads visits evenly over the links and counts one click per visit', async () => {
    const { links } = await rotatorWith(3, 'even-spread');
    const record = vi.spyOn(server.ctx.clicks, 'record');
    try {
      const counts = await spread('even-spread', 30);
      expect([...counts.keys()].sort()).toEqual(links.map((l) => l.longUrl).sort());
      expect([...counts.values()]).toEqual([10, 10, 10]);
      expect(record).toHaveBeenCalledTimes(30);
      const perLink = new Map<number, number>();
      for (const [kind, id, , visit] of record.mock.calls) {
        expect(kind).toBe('link');
        expect(visit).toMatchObject({ ip: expect.any(String), userAgent: expect.any(String), referer: expect.any(String) });
        perLink.set(id, (perLink.get(id) ?? 0) + 1);
      }
      expect([...perLink.values()]).toEqual([10, 10, 10]);
    } finally {
      record.mockRestore();
    }
  });

  it('picks up newly assigned links and slug changes at once', async () => {
    const { id, links } = await rotatorWith(2, 'grows');
    await spread('grows', 2);
    const extra = await makeLink(me);
    await assign(me.apiKey, id, extra.id);
    const counts = await spread('grows', 6);
    expect([...counts.keys()].sort()).toEqual([...links, extra].map((l) => l.longUrl).sort());
    await server.call('PUT', `/api/campaign/${id}/update`, { key: me.apiKey, body: { name: 'Rotator grows', slug: 'grown' } });
    expect((await server.visit('/r/grows')).status).toBe(404);
    expect((await server.visit('/r/grown')).status).toBe(302);
  });

  it('follows links put into or taken out of it by url add and url update', async () => {
    const { id, links } = await rotatorWith(2, 'via-links-api');
    await spread('via-links-api', 2); // cached now
    const added = await server.call('POST', '/api/url/add', { key: me.apiKey, body: { url: 'https://example.com/joined-on-add', campaign: id } });
    expect(added.status).toBe(200);
    expect([...(await spread('via-links-api', 6)).keys()].sort()).toEqual(
      [...links.map((l) => l.longUrl), 'https://example.com/joined-on-add'].sort(),
    );
    const other = await add(me.apiKey, { name: 'Elsewhere', slug: 'elsewhere' });
    const moved = await server.call('PUT', `/api/url/${added.body.id}/update`, {
      key: me.apiKey,
      body: { url: 'https://example.com/joined-on-add', campaign: other.body.id },
    });
    expect(moved.status).toBe(200);
    expect([...(await spread('via-links-api', 4)).keys()].sort()).toEqual(links.map((l) => l.longUrl).sort());
  });

  it('drops a link moved to another campaign', async () => {
    const first = await rotatorWith(2, 'moved-from');
    const second = await add(me.apiKey, { name: 'Moved to', slug: 'moved-to' });
    await spread('moved-from', 2);
    await assign(me.apiKey, second.body.id, first.links[0]!.id);
    const counts = await spread('moved-from', 4);
    expect([...counts.keys()]).toEqual([first.links[1]!.longUrl]);
    expect((await server.visit('/r/moved-to')).headers.location).toBe(first.links[0]!.longUrl);
  });

  it('follows link edits and deletions made through the links API', async () => {
    const { links } = await rotatorWith(2, 'edited');
    await spread('edited', 2);
    const moved = 'https://example.com/moved-destination';
    const upd = await server.call('PUT', `/api/url/${links[0]!.id}/update`, { key: me.apiKey, body: { url: moved } });
    expect(upd.status).toBe(200);
    expect([...(await spread('edited', 2)).keys()].sort()).toEqual([moved, links[1]!.longUrl].sort());
    expect((await server.call('DELETE', `/api/url/${links[1]!.id}/delete`, { key: me.apiKey })).status).toBe(200);
    expect([...(await spread('edited', 3)).keys()]).toEqual([moved]);
  });

  it('does not turn or count on HEAD', async () => {
    const { links } = await rotatorWith(2, 'head-peek');
    const record = vi.spyOn(server.ctx.clicks, 'record');
    try {
      const head = await server.visit('/r/head-peek', { method: 'HEAD' });
      expect(head.status).toBe(302);
      expect(record).not.toHaveBeenCalled();
      expect((await server.visit('/r/head-peek')).headers.location).toBe(head.headers.location);
      expect(links.map((l) => l.longUrl)).toContain(head.headers.location);
    } finally {
      record.mockRestore();
    }
  });

  it('skips expired links and sends password-protected ones through their short URL', async () => {
    const made = await add(me.apiKey, { name: 'Guarded', slug: 'guarded' });
    const expired = await makeLink(me, { expiry: '2000-01-01 00:00:00' });
    const locked = await makeLink(me, { password: 'a long password' });
    await assign(me.apiKey, made.body.id, expired.id);
    await assign(me.apiKey, made.body.id, locked.id);
    const res = await server.visit('/r/guarded');
    expect(res.headers.location).toBe(`${base}/${locked.alias}`);
  });

  it('answers the HTML 404 page for an unknown slug or a campaign without links', async () => {
    await add(me.apiKey, { name: 'Empty', slug: 'empty-campaign' });
    for (const path of ['/r/no-such-slug', '/r/empty-campaign']) {
      const res = await server.visit(path);
      expect(res.status).toBe(404);
      expect(String(res.headers['content-type'])).toContain('text/html');
    }
  });
});

describe('public list /u/{username}/{slug}-{id}', () => {
  it('lists a public campaign with titles or long URLs linked to short URLs', async () => {
    const made = await add(me.apiKey, { name: 'Public one', slug: 'public-one', public: true });
    const titled = await makeLink(me, { title: 'A titled link' });
    const plain = await makeLink(me);
    for (const link of [titled, plain]) await assign(me.apiKey, made.body.id, link.id);
    const res = await server.visit(new URL(made.body.list).pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('<title>Public one · Redirectory</title>');
    expect(res.text).toContain(`<a href="${base}/${titled.alias}" rel="nofollow noopener">A titled link</a>`);
    expect(res.text).toContain(`<a href="${base}/${plain.alias}" rel="nofollow noopener">${plain.longUrl}</a>`);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('answers 404 when not public, for another username or a stale tail', async () => {
    const hidden = await add(me.apiKey, { name: 'Hidden', slug: 'hidden-one' });
    const shown = await add(me.apiKey, { name: 'Shown', public: true });
    const id = shown.body.id;
    for (const path of [
      new URL(hidden.body.list).pathname,
      `/u/${other.username}/shown-${id}`,
      `/u/${me.username}/wrong-${id}`,
      `/u/${me.username}/shown-999999`,
      `/u/${me.username}/shown`,
    ]) {
      const res = await server.visit(path);
      expect(res.status, path).toBe(404);
      expect(String(res.headers['content-type'])).toContain('text/html');
    }
    expect((await server.visit(new URL(shown.body.list).pathname)).status).toBe(200);
  });

  it('escapes hostile campaign names and link titles, and never shows a protected destination', async () => {
    const made = await add(me.apiKey, { name: '<script>alert(1)</script>', public: true });
    const hostile = await makeLink(me, { title: '"><script>alert(2)</script>' });
    const hostileUrl = await makeLink(me, { url: 'https://example.com/?q=<script>alert(3)</script>' });
    const locked = await makeLink(me, { password: 'a long password', url: 'https://secret.example.com/hidden' });
    for (const link of [hostile, hostileUrl, locked]) await assign(me.apiKey, made.body.id, link.id);
    const res = await server.visit(new URL(made.body.list).pathname);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).toContain('&quot;&gt;&lt;script&gt;alert(2)');
    expect(res.text).not.toContain('secret.example.com');
  });
});
