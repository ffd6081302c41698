import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTimestamp } from '../src/lib/time.js';
import { startServer, type TestServer } from './helpers/server.js';

/** Issue 25: a link's and a QR code's detail give back every field add takes, and update takes them back unchanged. */

let server: TestServer;
let key: string;
let otherKey: string;
const mine = { splash: 0, overlay: 0, campaign: 0, channel: 0, pixels: [0, 0] };
const theirs = { campaign: 0, channel: 0, pixel: 0 };

const call = (method: string, path: string, body?: unknown, k = key) => server.call(method, path, { key: k, body });

async function seedPages(userId: number) {
  const db = server.ctx.db;
  const created_at = nowTimestamp();
  mine.splash = (await db.insertInto('splash_pages').values({ user_id: userId, name: 's', created_at }).returning('id').executeTakeFirstOrThrow()).id;
  mine.overlay = (
    await db.insertInto('overlays').values({ user_id: userId, type: 'message', name: 'o', created_at }).returning('id').executeTakeFirstOrThrow()
  ).id;
}

/** A campaign, a channel and a pixel through the API; returns their ids. */
async function seedRefs(k: string, suffix: string) {
  const campaign = (await call('POST', '/api/campaign/add', { name: `camp-${suffix}` }, k)).body.id as number;
  const channel = (await call('POST', '/api/channel/add', { name: `chan-${suffix}` }, k)).body.id as number;
  const pixel = (await call('POST', '/api/pixel/add', { type: 'gapixel', name: `p-${suffix}`, tag: 'G-1' }, k)).body.id as number;
  return { campaign, channel, pixel };
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  const [a, b] = [await server.user(), await server.user()];
  [key, otherKey] = [a.apiKey, b.apiKey];
  await seedPages(a.id);
  const one = await seedRefs(key, 'a');
  const two = await seedRefs(key, 'b');
  Object.assign(mine, { campaign: one.campaign, channel: one.channel, pixels: [one.pixel, two.pixel] });
  Object.assign(theirs, await seedRefs(otherKey, 'z'));
  expect((await call('POST', '/api/domain/add', { domain: 'https://go.example.com' })).status).toBe(200);
});
afterAll(() => server.close());

const full = () => ({
  url: 'https://example.com/everything',
  custom: `every-${Math.random().toString(36).slice(2, 8)}`,
  domain: 'https://go.example.com',
  type: String(mine.splash),
  password: 'secret words',
  expiry: '2031-05-06 07:08:09',
  geotarget: [{ location: 'germany', link: 'https://de.example.com' }],
  devicetarget: [{ device: 'android', link: 'https://a.example.com' }],
  languagetarget: [{ language: 'fr', link: 'https://fr.example.com' }],
  parameters: [
    { name: 'utm_source', value: 'news' },
    { name: 'utm_medium', value: 'mail' },
  ],
  metatitle: 'Meta title',
  metadescription: 'Meta description',
  metaimage: 'https://img.example.com/card.png',
  pixels: mine.pixels,
  campaign: mine.campaign,
  channel: mine.channel,
});

async function detailOf(id: number, k = key) {
  const res = await call('GET', `/api/url/${id}`, undefined, k);
  expect(res.status, res.text).toBe(200);
  return res.body.details as Record<string, unknown>;
}

/** The detail's values as an update body: what an edit form sends when saved unchanged. */
function asUpdate(details: Record<string, unknown>) {
  const { id: _id, shorturl: _s, location: _l, device: _d, date: _t, password: _p, longurl, ...fields } = details;
  return { url: longurl, ...fields };
}

describe('GET /api/url/{id} carries what url/add took', () => {
  it('reads back every field in add’s shape, the password as a boolean', async () => {
    const body = full();
    const added = await call('POST', '/api/url/add', body);
    expect(added.status, added.text).toBe(200);
    const details = await detailOf(added.body.id);
    expect(details).toMatchObject({
      longurl: body.url,
      custom: body.custom,
      domain: 'https://go.example.com',
      shorturl: `https://go.example.com/${body.custom}`,
      type: String(mine.splash),
      password: true,
      expiry: body.expiry,
      geotarget: body.geotarget,
      devicetarget: body.devicetarget,
      languagetarget: body.languagetarget,
      parameters: body.parameters,
      metatitle: body.metatitle,
      metadescription: body.metadescription,
      metaimage: body.metaimage,
      title: body.metatitle,
      description: body.metadescription,
      pixels: mine.pixels,
      campaign: mine.campaign,
      channel: mine.channel,
      location: { germany: 'https://de.example.com' },
      device: { android: 'https://a.example.com' },
    });
    expect(JSON.stringify(details)).not.toContain('secret words');
  });

  it('gives an overlay as overlay-{id} and a bare link its empty values', async () => {
    const overlay = await call('POST', '/api/url/add', { url: 'https://example.com/o', type: `overlay-${mine.overlay}` });
    expect(await detailOf(overlay.body.id)).toMatchObject({ type: `overlay-${mine.overlay}` });
    const bare = await call('POST', '/api/url/add', { url: 'https://example.com/bare' });
    expect(await detailOf(bare.body.id)).toMatchObject({
      domain: null,
      type: 'direct',
      password: false,
      expiry: null,
      geotarget: [],
      devicetarget: [],
      languagetarget: [],
      parameters: [],
      metatitle: '',
      metadescription: '',
      metaimage: '',
      pixels: [],
      campaign: null,
      channel: null,
    });
  });

  it('is left identical by an update that sends its values back', async () => {
    for (const type of [String(mine.splash), `overlay-${mine.overlay}`, 'frame']) {
      const added = await call('POST', '/api/url/add', { ...full(), type });
      const before = await call('GET', `/api/url/${added.body.id}`);
      const saved = await call('PUT', `/api/url/${added.body.id}/update`, asUpdate(before.body.details));
      expect(saved.status, saved.text).toBe(200);
      const after = await call('GET', `/api/url/${added.body.id}`);
      expect(after.body).toEqual(before.body);
      expect(after.body.details.password).toBe(true);
    }
  });

  it('never shows another account the link, nor one account’s ids in another’s link', async () => {
    const added = await call('POST', '/api/url/add', full());
    expect((await call('GET', `/api/url/${added.body.id}`, undefined, otherKey)).status).toBe(404);
    for (const field of [{ pixels: [theirs.pixel] }, { campaign: theirs.campaign }, { channel: theirs.channel }]) {
      const refused = await call('POST', '/api/url/add', { url: 'https://example.com/x', ...field });
      expect(refused.status, JSON.stringify(field)).toBe(400);
    }
    const theirLink = await call('POST', '/api/url/add', { url: 'https://example.com/t', pixels: [theirs.pixel], channel: theirs.channel }, otherKey);
    const details = await detailOf(theirLink.body.id, otherKey);
    expect(details).toMatchObject({ pixels: [theirs.pixel], channel: theirs.channel });
    // Rows that name another account's pixel and channel (only a bug could write them) stay out of the detail.
    const db = server.ctx.db;
    await db.insertInto('link_pixels').values({ link_id: added.body.id, pixel_id: theirs.pixel }).execute();
    const bare = await call('POST', '/api/url/add', { url: 'https://example.com/bare-refs' });
    const created_at = '2000-01-01 00:00:00';
    await db.insertInto('channel_items').values({ channel_id: theirs.channel, item_type: 'links', item_id: bare.body.id, created_at }).execute();
    expect(await detailOf(added.body.id)).toMatchObject({ pixels: mine.pixels, channel: mine.channel, campaign: mine.campaign });
    expect(await detailOf(bare.body.id)).toMatchObject({ pixels: [], channel: null, campaign: null });
  });
});

describe('GET /api/qr/{id} carries what qr/add took', () => {
  const codes = [
    { type: 'link', data: { url: 'https://example.com/menu' } },
    { type: 'wifi', data: { ssid: 'Cafe', password: 'pw12345678', encryption: 'WPA', hidden: true } },
    { type: 'vcard', data: { firstname: 'Ada', lastname: 'Lovelace', organization: 'Engines', email: 'ada@example.com' } },
    { type: 'email', data: { email: 'hi@example.com', subject: 'Hello', body: 'Text' } },
  ];

  it('reads back type, data and style, and an update sending them back changes nothing', async () => {
    for (const code of codes) {
      const body = {
        ...code,
        name: `code ${code.type}`,
        foreground: 'rgb(10,20,30)',
        background: 'rgb(250,250,240)',
        logo: 'https://img.example.com/l.png',
      };
      const added = await call('POST', '/api/qr/add', body);
      expect(added.status, added.text).toBe(200);
      const before = await call('GET', `/api/qr/${added.body.id}`);
      expect(before.body.details).toMatchObject({ ...body, data: expect.objectContaining(code.data) });
      const { type, data, name, foreground, background, logo } = before.body.details;
      const saved = await call('PUT', `/api/qr/${added.body.id}/update`, { type, data, name, foreground, background, logo });
      expect(saved.status, saved.text).toBe(200);
      expect((await call('GET', `/api/qr/${added.body.id}`)).body).toEqual(before.body);
      expect((await call('GET', `/api/qr/${added.body.id}`, undefined, otherKey)).status).toBe(404);
    }
  });
});
