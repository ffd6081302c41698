import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTimestamp } from '../src/lib/time.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let otherKey: string;
/** Ids of rows owned by the main user (mine) and by the other user (theirs). */
const mine = { splash: 0, overlay: 0, campaign: 0, channel: 0, pixel: 0, pixel2: 0 };
const theirs = { splash: 0, overlay: 0, campaign: 0, channel: 0, pixel: 0 };
const BASE = `http://${TEST_HOST}`;

/** Rows of features that have no write API here (splash, overlays, bio) or belong to other features. */
async function seed(userId: number, into: Partial<typeof mine>) {
  const db = server.ctx.db;
  const created_at = nowTimestamp();
  into.splash = (await db.insertInto('splash_pages').values({ user_id: userId, name: 's', created_at }).returning('id').executeTakeFirstOrThrow()).id;
  into.overlay = (
    await db.insertInto('overlays').values({ user_id: userId, type: 'message', name: 'o', created_at }).returning('id').executeTakeFirstOrThrow()
  ).id;
  into.campaign = (
    await db
      .insertInto('campaigns')
      .values({ user_id: userId, name: `c${userId}`, created_at })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  into.channel = (
    await db
      .insertInto('channels')
      .values({ user_id: userId, name: `ch${userId}`, created_at })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  const [a, b] = [await server.user(), await server.user()];
  [key, otherKey] = [a.apiKey, b.apiKey];
  await seed(a.id, mine);
  await seed(b.id, theirs);
  const pixel = async (k: string) =>
    (await server.call('POST', '/api/pixel/add', { key: k, body: { type: 'gapixel', name: 'p', tag: 'G-1' } })).body.id;
  [mine.pixel, mine.pixel2, theirs.pixel] = [await pixel(key), await pixel(key), await pixel(otherKey)];
  await server.ctx.db.insertInto('bio_pages').values({ user_id: b.id, alias: 'mybio', name: 'bio', created_at: nowTimestamp() }).execute();
  for (const [k, domain] of [
    [key, 'https://go.example.com'],
    [otherKey, 'https://their.example.com'],
  ]) {
    expect((await server.call('POST', '/api/domain/add', { key: k, body: { domain } })).status).toBe(200);
  }
});
afterAll(() => server.close());

const add = (body: unknown, k = key) => server.call('POST', '/api/url/add', { key: k, body });
const update = (id: number, body: unknown, k = key) => server.call('PUT', `/api/url/${id}/update`, { key: k, body });
const detail = (id: number, k = key) => server.call('GET', `/api/url/${id}`, { key: k });
const row = (id: number) => server.ctx.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const expect400 = async (body: unknown, contains: string, send = add) => {
  const res = await send(body);
  expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
  expect(res.body.error).toBe(1);
  expect(res.body.message).toContain(contains);
};

describe('POST /api/url/add', () => {
  it('shortens with a random alias on the default domain', async () => {
    const res = await add({ url: '  https://example.com/a?b=1  ', unknownField: 1 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'id', 'shorturl']);
    expect(res.body.error).toBe(0);
    expect(res.body.shorturl).toMatch(new RegExp(`^${BASE}/[A-Za-z0-9]{7}$`));
    expect((await row(res.body.id)).long_url).toBe('https://example.com/a?b=1');
  });

  it('stores every field and shows them in the detail with exact keys', async () => {
    const res = await add({
      url: 'https://example.com/full',
      custom: 'Full_Link-1',
      type: 'frame',
      password: 'long enough',
      expiry: '2031-05-06 07:08:09',
      geotarget: [{ location: ' France ', link: 'https://fr.example.com' }],
      devicetarget: [{ device: 'iPhone', link: 'https://m.example.com' }],
      languagetarget: [{ language: 'pt_BR', link: 'https://pt.example.com' }],
      parameters: [{ name: 'utm_source', value: 'API' }],
      metatitle: 'MT',
      metadescription: 'MD',
      metaimage: 'https://img.example.com/a.png',
      title: 'Title',
      description: 'Desc',
      pixels: [mine.pixel, mine.pixel2],
      campaign: mine.campaign,
      channel: mine.channel,
      tags: ['Spring', 'sale'],
    });
    expect(res.body).toEqual({ error: 0, id: expect.any(Number), shorturl: `${BASE}/Full_Link-1` });
    const got = await detail(res.body.id);
    expect(Object.keys(got.body).sort()).toEqual(['data', 'details', 'error']);
    expect(got.body.details).toEqual({
      id: res.body.id,
      shorturl: `${BASE}/Full_Link-1`,
      longurl: 'https://example.com/full',
      title: 'Title',
      description: 'Desc',
      location: { france: 'https://fr.example.com' },
      device: { iphone: 'https://m.example.com' },
      expiry: '2031-05-06 07:08:09',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      custom: 'Full_Link-1',
      domain: null,
      type: 'frame',
      password: true,
      geotarget: [{ location: 'france', link: 'https://fr.example.com' }],
      devicetarget: [{ device: 'iphone', link: 'https://m.example.com' }],
      languagetarget: [{ language: 'pt-br', link: 'https://pt.example.com' }],
      parameters: [{ name: 'utm_source', value: 'API' }],
      rules: [],
      split: [],
      maxvisits: null,
      expiredurl: '',
      metatitle: 'MT',
      metadescription: 'MD',
      metaimage: 'https://img.example.com/a.png',
      pixels: [mine.pixel, mine.pixel2],
      campaign: mine.campaign,
      channel: mine.channel,
      tags: ['sale', 'spring'],
      health: { status: 'unknown', code: null, checked: null, since: null },
      healthcheck: true,
      fallbackurl: '',
    });
    expect(Object.keys(got.body.data).sort()).toEqual([
      'clicks',
      'socialCount',
      'topBrowsers',
      'topCountries',
      'topDevices',
      'topLanguages',
      'topOs',
      'topReferrers',
      'uniqueClicks',
    ]); // `variants` only on a link that splits its traffic (tests/rules.test.ts)
    expect(got.body.data.socialCount).toEqual({ facebook: 0, twitter: 0, google: 0 });
    const stored = await row(res.body.id);
    expect(stored).toMatchObject({ type: 'frame', campaign_id: mine.campaign, meta_title: 'MT', meta_image: 'https://img.example.com/a.png' });
    expect(JSON.parse(stored.language_targets)).toEqual([{ language: 'pt-br', link: 'https://pt.example.com' }]);
    expect(JSON.parse(stored.parameters)).toEqual([{ name: 'utm_source', value: 'API' }]);
    expect(stored.password_hash).toMatch(/^\$argon2/);
    const pixels = await server.ctx.db.selectFrom('link_pixels').select('pixel_id').where('link_id', '=', res.body.id).orderBy('pixel_id').execute();
    expect(pixels.map((p) => p.pixel_id)).toEqual([mine.pixel, mine.pixel2]);
    const items = await server.ctx.db
      .selectFrom('channel_items')
      .selectAll()
      .where('item_type', '=', 'links')
      .where('item_id', '=', res.body.id)
      .execute();
    expect(items.map((i) => i.channel_id)).toEqual([mine.channel]);
  });

  it('accepts only http(s) URLs up to 8 KB, internationalized ones included', async () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'ftp://example.com/f', 'not a url', '', 'https://']) {
      await expect400({ url }, 'url');
    }
    await expect400({ url: `https://example.com/${'a'.repeat(8192)}` }, 'longer than');
    expect((await add({ url: `https://example.com/${'a'.repeat(8000)}` })).status).toBe(200);
    const idn = await add({ url: 'https://bücher.example/straße?q=ü' });
    expect(idn.status).toBe(200);
    expect((await detail(idn.body.id)).body.details.longurl).toBe('https://bücher.example/straße?q=ü');
  });

  it('checks custom aliases: pattern, reserved words, taken across accounts, bio pages on the default domain', async () => {
    for (const custom of ['ab', 'has space', 'x'.repeat(65), 'ümlaut', 'a/b']) await expect400({ url: 'https://example.com', custom }, 'custom');
    for (const custom of ['api', 'API', 'docs', 'health']) await expect400({ url: 'https://example.com', custom }, 'reserved');
    expect((await add({ url: 'https://example.com', custom: 'CaseKept' })).status).toBe(200);
    expect((await add({ url: 'https://example.com', custom: 'casekept' })).status).toBe(200);
    const taken = await add({ url: 'https://example.com', custom: 'CaseKept' }, otherKey);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 1, message: 'That alias is taken. Please choose another one.', code: 'alias_taken' });
    expect((await add({ url: 'https://example.com', custom: 'mybio' })).status).toBe(409);
    expect((await add({ url: 'https://example.com', custom: 'mybio', domain: 'go.example.com' })).status).toBe(200);
    expect((await add({ url: 'https://example.com', custom: 'CaseKept', domain: 'go.example.com' })).status).toBe(200);
  });

  it('gives exactly one success when 20 requests race for the same alias', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => add({ url: 'https://example.com/race', custom: 'raced-alias' })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it("places links on the caller's branded domain, with or without scheme", async () => {
    for (const domain of ['https://go.example.com', 'go.example.com', 'GO.EXAMPLE.COM', 'https://go.example.com/']) {
      const res = await add({ url: 'https://example.com', domain });
      expect(res.body.shorturl, domain).toMatch(/^https:\/\/go\.example\.com\/[A-Za-z0-9]{7}$/);
    }
    for (const domain of [false, '', null, TEST_HOST]) {
      expect((await add({ url: 'https://example.com', domain })).body.shorturl).toMatch(new RegExp(`^${BASE}/`));
    }
    await expect400({ url: 'https://example.com', domain: 'their.example.com' }, 'Unknown domain');
    for (const domain of ['nowhere.example.com', 'go.example.com/path', 'ftp://go.example.com', true]) {
      await expect400({ url: 'https://example.com', domain }, 'Unknown domain');
    }
  });

  it('refuses bad expiry, target links, language codes, too many targets and overlong passwords', async () => {
    const url = 'https://example.com';
    for (const expiry of ['2030-01-01', '2030-02-30 00:00:00', 'tomorrow', '2030-01-01T00:00:00Z']) await expect400({ url, expiry }, 'expiry');
    await expect400({ url, geotarget: [{ location: 'fr', link: 'javascript:alert(1)' }] }, 'geotarget[0].link');
    await expect400(
      {
        url,
        devicetarget: [
          { device: 'ios', link: 'https://ok.example' },
          { device: 'android', link: 'ftp://x' },
        ],
      },
      'devicetarget[1].link',
    );
    await expect400({ url, languagetarget: [{ language: 'english!', link: 'https://ok.example' }] }, 'languagetarget[0].language');
    await expect400({ url, geotarget: [{ location: '  ', link: 'https://ok.example' }] }, 'geotarget[0].location');
    await expect400({ url, geotarget: Array.from({ length: 51 }, () => ({ location: 'fr', link: 'https://ok.example' })) }, 'geotarget');
    await expect400({ url, parameters: [{ name: '', value: 'x' }] }, 'parameters[0].name');
    await expect400({ url, metaimage: 'javascript:x' }, 'metaimage');
    await expect400({ url, password: 'x'.repeat(257) }, '"password"');
  });

  it('accepts link passwords of any non-empty length, and "" as none', async () => {
    for (const password of ['1', '1234', 'pass']) {
      const res = await add({ url: 'https://example.com/locked', password });
      expect(res.status, password).toBe(200);
      expect((await row(res.body.id)).password_hash).toMatch(/^\$argon2id\$/);
    }
    expect((await row((await add({ url: 'https://example.com/open', password: '' })).body.id)).password_hash).toBeNull();
    await add({ url: 'https://example.com/pin', custom: 'pin-locked', password: '1234' });
    expect((await server.visit('/pin-locked')).text).toContain('name="password"');
    const unlock = (password: string) =>
      server.visit('/pin-locked', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `password=${password}`,
      });
    expect((await unlock('123')).status).toBe(401);
    const right = await unlock('1234');
    expect(right.status).toBe(200);
    expect(String(right.headers['set-cookie'])).toMatch(/^rdpw\d+=/);
  });

  it('checks the type and the ids it names', async () => {
    const url = 'https://example.com';
    const typeOf = async (type: string) => {
      const res = await add({ url, type });
      expect(res.status, type).toBe(200);
      const stored = await row(res.body.id);
      return [stored.type, stored.splash_id, stored.overlay_id];
    };
    expect(await typeOf('direct')).toEqual(['direct', null, null]);
    expect(await typeOf('splash')).toEqual(['splash', null, null]);
    expect(await typeOf(String(mine.splash))).toEqual(['splash', mine.splash, null]);
    expect(await typeOf(`overlay-${mine.overlay}`)).toEqual(['overlay', null, mine.overlay]);
    await expect400({ url, type: String(theirs.splash) }, 'splash page');
    await expect400({ url, type: `overlay-${theirs.overlay}` }, 'overlay');
    await expect400({ url, type: 'overlay-999999' }, 'overlay');
    await expect400({ url, type: 'redirect' }, 'Unknown type');
  });

  it('checks pixels, campaign and channel belong to the caller', async () => {
    const url = 'https://example.com';
    await expect400({ url, pixels: [mine.pixel, theirs.pixel] }, `pixel with id ${theirs.pixel}`);
    await expect400({ url, campaign: theirs.campaign }, 'campaign');
    await expect400({ url, channel: theirs.channel }, 'channel');
  });

  it('refuses wrong field types naming the field', async () => {
    for (const [field, value] of [
      ['url', 5],
      ['custom', 5],
      ['geotarget', 'x'],
      ['pixels', ['a']],
      ['domain', 5],
      ['campaign', 'x'],
      ['expiry', 7],
    ] as const) {
      await expect400({ url: 'https://example.com', [field]: value }, `"${field}`);
    }
    await expect400({}, '"url"');
  });
});

describe('PUT /api/url/{id}/update', () => {
  it('changes only the fields sent and answers with the key `short`', async () => {
    const { id } = (
      await add({ url: 'https://example.com/old', title: 'Keep', password: 'long enough', expiry: '2031-01-01 00:00:00', pixels: [mine.pixel] })
    ).body;
    const res = await update(id, {
      url: 'https://example.com/new',
      custom: 'renamed-link',
      password: '',
      expiry: null,
      pixels: [mine.pixel2],
      channel: mine.channel,
      type: String(mine.splash),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0, id, short: `${BASE}/renamed-link` });
    const stored = await row(id);
    expect(stored).toMatchObject({
      long_url: 'https://example.com/new',
      alias: 'renamed-link',
      title: 'Keep',
      password_hash: null,
      expiry: null,
      type: 'splash',
      splash_id: mine.splash,
    });
    const pixels = await server.ctx.db.selectFrom('link_pixels').select('pixel_id').where('link_id', '=', id).execute();
    expect(pixels.map((p) => p.pixel_id)).toEqual([mine.pixel2]);
    expect((await update(id, { url: 'https://example.com/new', domain: 'go.example.com' })).body.short).toBe('https://go.example.com/renamed-link');
    expect((await update(id, { url: 'https://example.com/new', expiry: '' })).status).toBe(200);
  });

  it('applies the add rules, refuses overlays and requires url', async () => {
    const { id } = (await add({ url: 'https://example.com' })).body;
    const send = (body: unknown) => update(id, body);
    await expect400({ custom: 'x-y-z' }, '"url"', send);
    await expect400({ url: 'javascript:alert(1)' }, 'url', send);
    await expect400({ url: 'https://example.com', type: `overlay-${mine.overlay}` }, 'on update', send);
    await expect400({ url: 'https://example.com', custom: 'api' }, 'reserved', send);
    await expect400({ url: 'https://example.com', expiry: 'soon' }, 'expiry', send);
    await expect400({ url: 'https://example.com', password: 'x'.repeat(257) }, '"password"', send);
    expect((await update(id, { url: 'https://example.com', password: '12' })).status).toBe(200);
    expect((await row(id)).password_hash).toMatch(/^\$argon2id\$/);
    await expect400({ url: 'https://example.com', pixels: [theirs.pixel] }, 'pixel', send);
    await add({ url: 'https://example.com', custom: 'occupied' }, otherKey);
    expect((await update(id, { url: 'https://example.com', custom: 'occupied' })).status).toBe(409);
  });

  it('publishes the old and the new public address when the alias moves', async () => {
    const { id } = (await add({ url: 'https://example.com', custom: 'before-move' })).body;
    const seen: string[] = [];
    server.ctx.invalidation.subscribe((k) => seen.push(k));
    await update(id, { url: 'https://example.com', custom: 'after-move', domain: 'https://go.example.com' });
    expect(seen).toEqual(expect.arrayContaining([`l:${TEST_HOST}/before-move`, 'l:go.example.com/after-move']));
    seen.length = 0;
    await server.call('PUT', `/api/pixel/${mine.pixel2}/update`, { key, body: { tag: 'G-2' } });
    expect(seen).toContain('l:go.example.com/renamed-link');
  });
});

describe('GET and DELETE /api/url/{id}', () => {
  it("answers 404 for another account's or an unknown id on every endpoint", async () => {
    const { id } = (await add({ url: 'https://example.com' })).body;
    for (const res of [
      await detail(id, otherKey),
      await update(id, { url: 'https://example.com' }, otherKey),
      await server.call('DELETE', `/api/url/${id}/delete`, { key: otherKey }),
      await detail(999999),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 1, message: 'Link not found.', code: 'not_found' });
    }
    expect((await detail(id)).status).toBe(200);
    expect((await detail(0)).status).toBe(400);
  });

  it('deletes the link with its pixels and channel entries', async () => {
    const { id } = (await add({ url: 'https://example.com', custom: 'to-delete', pixels: [mine.pixel], channel: mine.channel })).body;
    const seen: string[] = [];
    server.ctx.invalidation.subscribe((k) => seen.push(k));
    const res = await server.call('DELETE', `/api/url/${id}/delete`, { key });
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    expect(seen).toContain(`l:${TEST_HOST}/to-delete`);
    expect((await detail(id)).status).toBe(404);
    const left = await Promise.all([
      server.ctx.db.selectFrom('link_pixels').select('pixel_id').where('link_id', '=', id).execute(),
      server.ctx.db.selectFrom('channel_items').select('item_id').where('item_type', '=', 'links').where('item_id', '=', id).execute(),
    ]);
    expect(left).toEqual([[], []]);
    expect((await add({ url: 'https://example.com', custom: 'to-delete' })).status).toBe(200);
  });
});

describe('title and description from metatitle and metadescription', () => {
  it('answers the meta texts as title and description on detail, list and channel items, after add and update', async () => {
    const k = (await server.user()).apiKey;
    const channel = (await server.call('POST', '/api/channel/add', { key: k, body: { name: 'Meta' } })).body.id;
    const shown = async (id: number) => {
      const entry = (await server.call('GET', '/api/urls?limit=1', { key: k })).body.data.urls[0];
      const item = (await server.call('GET', `/api/channel/${channel}`, { key: k })).body.data.items[0];
      const { title, description } = (await detail(id, k)).body.details;
      expect(entry.id).toBe(id);
      expect({ title: entry.title, description: entry.description }).toEqual({ title, description });
      expect(item.title).toBe(title);
      return { title, description };
    };
    const meta = { metatitle: 'Full Title — Ünïcödé ✓', metadescription: 'Ça marche 日本語' };
    const { id } = (await add({ url: 'https://example.com/meta', channel, ...meta }, k)).body;
    expect(await shown(id)).toEqual({ title: meta.metatitle, description: meta.metadescription });
    expect((await server.call('GET', `/api/urls?q=${encodeURIComponent('full title')}`, { key: k })).body.data.urls).toHaveLength(1);

    await update(id, { url: 'https://example.com/meta', metatitle: 'Changed', metadescription: '' }, k);
    expect(await shown(id)).toEqual({ title: 'Changed', description: '' });
    await update(id, { url: 'https://example.com/meta', title: 'Own title', description: 'Own text' }, k);
    expect(await shown(id)).toEqual({ title: 'Own title', description: 'Own text' });
  });
});

describe('GET /api/urls', () => {
  let fresh: string;
  const ids: number[] = [];
  const list = (query = '') => server.call('GET', `/api/urls${query}`, { key: fresh });

  beforeAll(async () => {
    fresh = (await server.user()).apiKey;
    const titles = ['Alpha news', 'beta 100% off', 'Gamma', 'delta', 'Epsilon'];
    for (const [i, title] of titles.entries()) {
      ids.push((await add({ url: `https://site${i}.example.com/page`, title, custom: `list-${i}-x`, description: i ? '' : 'first' }, fresh)).body.id);
    }
    // Clicks are kept by the click recorder; set them directly for ordering.
    for (const [i, clicks] of [3, 10, 0, 10, 1].entries()) {
      await server.ctx.db
        .insertInto('click_summaries')
        .values({ target_kind: 'link', target_id: ids[i]!, clicks, uniques: clicks, labels: '{}' })
        .execute();
    }
  });

  it('lists with exact keys, newest first', async () => {
    const res = await list();
    expect(res.body.error).toBe('0');
    expect(Object.keys(res.body.data).sort()).toEqual(['currentpage', 'maxpage', 'nextpage', 'perpage', 'result', 'urls']);
    const first = res.body.data.urls[4];
    expect(Object.keys(first).sort()).toEqual(['alias', 'clicks', 'date', 'description', 'health', 'id', 'longurl', 'shorturl', 'tags', 'title']);
    expect(first).toMatchObject({
      id: ids[0],
      alias: 'list-0-x',
      shorturl: `${BASE}/list-0-x`,
      longurl: 'https://site0.example.com/page',
      clicks: 3,
      title: 'Alpha news',
      description: 'first',
    });
    expect(res.body.data.urls.map((u: { id: number }) => u.id)).toEqual([...ids].reverse());
    expect((await detail(ids[1]!, fresh)).body.data.clicks).toBe(10);
  });

  it('paginates with the spec arithmetic', async () => {
    expect((await list('?limit=2')).body.data).toMatchObject({ result: 5, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 3 });
    const last = (await list('?limit=2&page=3')).body.data;
    expect(last).toMatchObject({ currentpage: 3, nextpage: 0, maxpage: 3 });
    expect(last.urls.map((u: { id: number }) => u.id)).toEqual([ids[0]]);
    expect((await list('?limit=2&page=7')).body.data).toMatchObject({ currentpage: 7, nextpage: 0, urls: [] });
    expect((await list('?limit=5000')).body.data).toMatchObject({ perpage: 1000, maxpage: 1 });
    expect((await list('?limit=abc')).status).toBe(400);
  });

  it('orders by clicks (ties newest first) or date, unknown order meaning date', async () => {
    const order = async (q: string) => (await list(q)).body.data.urls.map((u: { id: number }) => u.id);
    expect(await order('?order=click')).toEqual([ids[3], ids[1], ids[0], ids[4], ids[2]]);
    expect(await order('?order=date')).toEqual([...ids].reverse());
    expect(await order('?order=sideways')).toEqual([...ids].reverse());
  });

  it('searches alias, long URL and title case-insensitively, wildcards literal', async () => {
    const found = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).body.data;
    expect((await found('ALPHA')).urls.map((u: { id: number }) => u.id)).toEqual([ids[0]]);
    expect((await found('site2.example')).urls.map((u: { id: number }) => u.id)).toEqual([ids[2]]);
    expect((await found('list-3')).urls.map((u: { id: number }) => u.id)).toEqual([ids[3]]);
    expect((await found('100%')).result).toBe(1);
    expect((await found('%')).result).toBe(1);
    expect((await found('_')).result).toBe(0);
    expect((await found('nothing')).urls).toEqual([]);
  });
});
