import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTimestamp } from '../src/lib/time.js';
import { decodeImage, fetchImage, makeLogo } from './helpers/qr-images.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
  otherKey = (await server.user()).apiKey;
});
afterAll(() => server.close());

const add = (body: unknown, apiKey = key) => server.call('POST', '/api/qr/add', { key: apiKey, body });
const slugOf = (link: string) => new URL(link).pathname.split('/')[2]!;

async function created(body: unknown, apiKey = key): Promise<{ id: number; link: string; slug: string }> {
  const res = await add(body, apiKey);
  expect(res.status, res.text).toBe(200);
  return { ...res.body, slug: slugOf(res.body.link) };
}

async function expectInvalid(body: unknown, field: string): Promise<void> {
  const res = await add(body);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'message']);
  expect(res.body.error).toBe(1);
  expect(res.body.code).toMatch(/^(invalid_field|qr_[a-z_]+)$/);
  expect(res.body.message).toContain(field);
}

describe('POST /api/qr/add', () => {
  it('answers {error, id, link} with an unguessable image address', async () => {
    const res = await add({ type: 'text', data: 'Hello' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'id', 'link']);
    expect(res.body.error).toBe(0);
    expect(res.body.id).toEqual(expect.any(Number));
    expect(res.body.link).toMatch(new RegExp(`^http://${TEST_HOST}/qr/[A-Za-z0-9_-]{12}$`));
    const again = await add({ type: 'text', data: 'Hello' });
    expect(slugOf(again.body.link)).not.toBe(slugOf(res.body.link));
  });

  it('refuses a missing, unknown or mistyped type', async () => {
    await expectInvalid({ data: 'x' }, '"type"');
    await expectInvalid({ type: 'barcode', data: 'x' }, '"type"');
    await expectInvalid({ type: 42, data: 'x' }, '"type"');
  });

  it('refuses missing or mistyped data', async () => {
    await expectInvalid({ type: 'text' }, '"data"');
    await expectInvalid({ type: 'text', data: 42 }, '"data"');
    await expectInvalid({ type: 'text', data: ['a'] }, '"data"');
    await expectInvalid({ type: 'text', data: null }, '"data"');
  });

  it('refuses colors that are not rgb(R,G,B) with 0-255 values, or too alike to scan', async () => {
    for (const color of ['rgb(300,0,0)', 'red', '#000000', 'rgb(1,2)', 'rgb(-1,0,0)', 'rgba(0,0,0,1)']) {
      await expectInvalid({ type: 'text', data: 'x', foreground: color }, '"foreground"');
      await expectInvalid({ type: 'text', data: 'x', background: color }, '"background"');
    }
    await expectInvalid({ type: 'text', data: 'x', foreground: 7 }, '"foreground"');
    await expectInvalid({ type: 'text', data: 'x', foreground: 'rgb(10,10,10)', background: 'rgb(12,12,12)' }, 'colors');
    const ok = await add({ type: 'text', data: 'x', foreground: ' RGB( 0, 0, 128 ) ', background: 'rgb(255,255,240)' });
    expect(ok.status).toBe(200);
  });

  it('refuses bad data for each type, naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['text', '', '"data"'],
      ['text', { text: 5 }, '"data.text"'],
      ['link', 'not a url', '"data"'],
      ['link', 'javascript:alert(1)', '"data"'],
      ['link', { url: 'ftp://example.com/file' }, '"data.url"'],
      ['link', {}, '"data.url"'],
      ['email', { subject: 'Hi' }, '"data.email"'],
      ['email', { email: 'nope' }, '"data.email"'],
      ['email', 'not-an-address', '"data"'],
      ['email', { email: 'a@example.com', body: 3 }, '"data.body"'],
      ['phone', 'call me', '"data"'],
      ['phone', { phone: '' }, '"data.phone"'],
      ['sms', { message: 'hi' }, '"data.phone"'],
      ['wifi', { password: 'secret' }, '"data.ssid"'],
      ['wifi', { ssid: 'Net', encryption: 'WPA' }, '"data.password"'],
      ['wifi', { ssid: 'Net', encryption: 'TKIP', password: 'x' }, '"data.encryption"'],
      ['wifi', { ssid: 'Net', hidden: 'yes' }, '"data.hidden"'],
      ['vcard', { organization: 'ACME' }, '"data.firstname"'],
      ['vcard', { firstname: 'Ada', email: 'bad' }, '"data.email"'],
      ['vcard', { firstname: 'Ada', website: 'javascript:x' }, '"data.website"'],
      ['vcard', { firstname: 'Ada', phone: 'none' }, '"data.phone"'],
    ];
    for (const [type, data, field] of cases) await expectInvalid({ type, data }, field);
  });

  it('refuses data too long for a QR code, and over-long names', async () => {
    await expectInvalid({ type: 'text', data: 'x'.repeat(1300) }, 'too long');
    await expectInvalid({ type: 'text', data: 'x'.repeat(100_000) }, '"data"');
    await expectInvalid({ type: 'text', data: 'x', name: 'n'.repeat(256) }, '"name"');
    expect((await add({ type: 'text', data: 'x'.repeat(1000) })).status).toBe(200);
  });

  it('refuses logos that are not png/jpeg data URIs or http(s) URLs', async () => {
    const jpeg = (await makeLogo('jpeg')).split(',')[1]!;
    const bad = [
      '/etc/passwd',
      'file:///etc/passwd',
      'ftp://example.com/logo.png',
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      `data:image/png;base64,${jpeg}`,
      `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`,
      `data:image/png;base64,${Buffer.alloc(600 * 1024, 7).toString('base64')}`,
      'data:text/html;base64,PHNjcmlwdD4=',
    ];
    for (const logo of bad) await expectInvalid({ type: 'text', data: 'x', logo }, 'logo');
    expect((await add({ type: 'text', data: 'x', logo: `data:image/jpeg;base64,${jpeg}` })).status).toBe(200);
    expect((await add({ type: 'text', data: 'x', logo: 'https://cdn.example.com/logo.png' })).status).toBe(200);
  });
});

describe('GET /api/qr and /api/qr/{id}', () => {
  it('lists the caller’s codes newest first with the spec’s envelope and pagination', async () => {
    const user = await server.user();
    const made = [];
    for (const text of ['one', 'two', 'three']) made.push(await created({ type: 'text', data: text, name: `Code ${text}` }, user.apiKey));
    const first = await server.call('GET', '/api/qr?limit=2&page=1', { key: user.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.error).toBe('0');
    expect(Object.keys(first.body.data).sort()).toEqual(['currentpage', 'maxpage', 'nextpage', 'perpage', 'qrs', 'result']);
    expect(first.body.data).toMatchObject({ result: 3, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 2 });
    expect(first.body.data.qrs.map((q: { id: number }) => q.id)).toEqual([made[2]!.id, made[1]!.id]);
    const entry = first.body.data.qrs[0];
    expect(Object.keys(entry).sort()).toEqual(['date', 'id', 'link', 'name', 'scans']);
    expect(entry).toMatchObject({ link: made[2]!.link, name: 'Code three', scans: 0 });
    expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const second = await server.call('GET', '/api/qr?limit=2&page=2', { key: user.apiKey });
    expect(second.body.data).toMatchObject({ result: 3, currentpage: 2, nextpage: 0, maxpage: 2 });
    expect(second.body.data.qrs.map((q: { id: number }) => q.id)).toEqual([made[0]!.id]);
    const empty = await server.call('GET', '/api/qr', { key: (await server.user()).apiKey });
    expect(empty.body.data).toMatchObject({ result: 0, qrs: [], nextpage: 0, maxpage: 1 });
  });

  it('names a code after its data when no name is given', async () => {
    const user = await server.user();
    await created({ type: 'wifi', data: { ssid: 'Office', password: 'pw123456' } }, user.apiKey);
    await created({ type: 'vcard', data: { firstname: 'Ada', lastname: 'Lovelace' } }, user.apiKey);
    const list = await server.call('GET', '/api/qr', { key: user.apiKey });
    expect(list.body.data.qrs.map((q: { name: string }) => q.name)).toEqual(['Ada Lovelace', 'Office']);
  });

  it('answers details with exact keys and empty statistics in the spec’s shape', async () => {
    const code = await created({ type: 'text', data: 'details', name: 'Menu' });
    const res = await server.call('GET', `/api/qr/${code.id}`, { key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'details', 'error']);
    expect(res.body.error).toBe(0);
    expect(res.body.details).toEqual({
      id: code.id,
      link: code.link,
      scans: 0,
      name: 'Menu',
      date: expect.any(String),
      type: 'text',
      data: { text: 'details' },
      background: 'rgb(255,255,255)',
      foreground: 'rgb(0,0,0)',
      logo: '',
    });
    expect(res.body.data).toEqual({
      clicks: 0,
      uniqueClicks: 0,
      topCountries: 0,
      topReferrers: 0,
      topBrowsers: 0,
      topOs: 0,
      socialCount: expect.objectContaining({ facebook: 0, twitter: 0, instagram: 0 }),
    });
    expect(Object.values(res.body.data.socialCount).every((n) => n === 0)).toBe(true);
  });

  it('refuses a non-numeric id', async () => {
    const res = await server.call('GET', '/api/qr/abc', { key });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(1);
  });
});

describe('another account’s codes', () => {
  it('answer 404 like unknown ids on every id endpoint, and stay untouched', async () => {
    const mine = await created({ type: 'text', data: 'private' });
    for (const id of [mine.id, 99_999_999]) {
      const calls = [
        server.call('GET', `/api/qr/${id}`, { key: otherKey }),
        server.call('PUT', `/api/qr/${id}/update`, { key: otherKey, body: { data: 'hijacked' } }),
        server.call('DELETE', `/api/qr/${id}/delete`, { key: otherKey }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 1, message: 'QR code not found.', code: 'not_found' });
      }
    }
    const list = await server.call('GET', '/api/qr', { key: otherKey });
    expect(list.body.data.qrs.map((q: { id: number }) => q.id)).not.toContain(mine.id);
    expect(await decodeImage((await fetchImage(server, `/qr/${mine.slug}`)).body)).toBe('private');
  });
});

describe('PUT /api/qr/{id}/update', () => {
  it('changes the payload, keeps the address, ignores type and keeps omitted colors', async () => {
    const code = await created({ type: 'text', data: 'before', foreground: 'rgb(0,0,120)' });
    expect(await decodeImage((await fetchImage(server, `/qr/${code.slug}`)).body)).toBe('before');
    const res = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { type: 'wifi', data: 'after', background: 'rgb(255,250,230)' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    const image = await fetchImage(server, `/qr/${code.slug}`);
    expect(await decodeImage(image.body)).toBe('after');
    const { data } = await sharp(image.body).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 250, 230]); // the corner is quiet zone: background
    const details = await server.call('GET', `/api/qr/${code.id}`, { key });
    expect(details.body.details.link).toBe(code.link);
  });

  it('validates data as the stored type and requires it', async () => {
    const code = await created({ type: 'email', data: 'a@example.com' });
    const missing = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { foreground: 'rgb(0,0,0)' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('"data"');
    const bad = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: { subject: 'x' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"data.email"');
    const color = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: 'b@example.com', background: 'white' } });
    expect(color.status).toBe(400);
    expect(color.body.message).toContain('"background"');
    expect(await decodeImage((await fetchImage(server, `/qr/${code.slug}`)).body)).toBe('mailto:a@example.com');
  });

  it('adds and removes a logo', async () => {
    const code = await created({ type: 'text', data: 'logo later' });
    const plain = (await fetchImage(server, `/qr/${code.slug}?format=svg`)).body.toString();
    expect(plain).not.toContain('<image');
    await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: 'logo later', logo: await makeLogo() } });
    const withLogo = await fetchImage(server, `/qr/${code.slug}`);
    expect(await decodeImage(withLogo.body)).toBe('logo later');
    expect((await fetchImage(server, `/qr/${code.slug}?format=svg`)).body.toString()).toContain('<image href="data:image/png;base64,');
    await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: 'logo later', logo: '' } });
    expect((await fetchImage(server, `/qr/${code.slug}?format=svg`)).body.toString()).not.toContain('<image');
  });
});

describe('DELETE /api/qr/{id}/delete', () => {
  it('removes the code, its image and its channel entries', async () => {
    const code = await created({ type: 'text', data: 'short-lived' });
    expect((await fetchImage(server, `/qr/${code.slug}`)).status).toBe(200);
    const { db } = server.ctx;
    const owner = await db.selectFrom('qr_codes').select('user_id').where('id', '=', code.id).executeTakeFirstOrThrow();
    const channel = await db
      .insertInto('channels')
      .values({ user_id: owner.user_id, name: `qr-${code.id}`, created_at: nowTimestamp() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('channel_items').values({ channel_id: channel.id, item_type: 'qr', item_id: code.id, created_at: nowTimestamp() }).execute();

    const res = await server.call('DELETE', `/api/qr/${code.id}/delete`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    expect((await fetchImage(server, `/qr/${code.slug}`)).status).toBe(404);
    expect((await server.call('GET', `/api/qr/${code.id}`, { key })).status).toBe(404);
    expect((await server.call('DELETE', `/api/qr/${code.id}/delete`, { key })).status).toBe(404);
    const items = await db.selectFrom('channel_items').selectAll().where('channel_id', '=', channel.id).execute();
    expect(items).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the QR endpoints and the public image address', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    for (const path of ['/api/qr', '/api/qr/{id}', '/api/qr/add', '/api/qr/{id}/update', '/api/qr/{id}/delete', '/qr/{slug}', '/qr/{slug}/scan']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/api/qr/add'])).toContain('never fetches');
  });
});
