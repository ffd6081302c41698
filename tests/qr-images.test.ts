import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIZE_STEPS } from '../src/features/qr/serve.js';
import { decodeImage, decodeSvg, fetchImage, makeLogo } from './helpers/qr-images.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
let logo: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
  logo = await makeLogo();
});
afterAll(() => server.close());

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

async function create(body: Record<string, unknown>): Promise<{ id: number; slug: string }> {
  const res = await server.call('POST', '/api/qr/add', { key, body });
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id, slug: new URL(res.body.link).pathname.split('/')[2]! };
}

const scanAddress = (slug: string) => `http://${TEST_HOST}/qr/${slug}/scan`;

/** Each type with the payload the spec's standards give for it; `null` means our tracking address. */
const CASES: Array<[string, string, unknown, string | null]> = [
  ['text', 'text', 'Hello, QR world', 'Hello, QR world'],
  ['text (unicode object)', 'text', { text: 'héllo wörld ✓' }, 'héllo wörld ✓'],
  ['link', 'link', 'https://example.com/landing?x=1', null],
  [
    'email',
    'email',
    { email: 'team@example.com', subject: 'Hello there', body: 'Line 1 & more' },
    'mailto:team@example.com?subject=Hello%20there&body=Line%201%20%26%20more',
  ],
  ['email (plain string)', 'email', 'team@example.com', 'mailto:team@example.com'],
  ['phone', 'phone', '+1 (555) 010-9999', 'tel:+15550109999'],
  ['sms', 'sms', { phone: '+15550100', message: 'Reply: YES' }, 'SMSTO:+15550100:Reply: YES'],
  ['sms (plain string)', 'sms', '+15550100', 'SMSTO:+15550100:'],
  [
    'wifi',
    'wifi',
    { ssid: 'Cafe;Net', password: 'p:ss"word\\', encryption: 'WPA', hidden: true },
    'WIFI:T:WPA;S:Cafe\\;Net;P:p\\:ss\\"word\\\\;H:true;;',
  ],
  ['wifi (plain string)', 'wifi', 'GuestNet', 'WIFI:T:nopass;S:GuestNet;;'],
  [
    'vcard',
    'vcard',
    {
      firstname: 'Ada',
      lastname: 'Lovelace',
      organization: 'Analytical, Ltd',
      phone: '+44 20 7946 0000',
      email: 'ada@example.com',
      website: 'https://ada.example.com/',
      address: '12 St James Sq; London',
    },
    'BEGIN:VCARD\nVERSION:3.0\nN:Lovelace;Ada;;;\nFN:Ada Lovelace\nORG:Analytical\\, Ltd\nTEL:+442079460000\nEMAIL:ada@example.com\nURL:https://ada.example.com/\nADR:;;12 St James Sq\\; London;;;;\nEND:VCARD',
  ],
  [
    'vcard (plain string)',
    'vcard',
    'Grace Brewster Hopper',
    'BEGIN:VCARD\nVERSION:3.0\nN:Hopper;Grace Brewster;;;\nFN:Grace Brewster Hopper\nEND:VCARD',
  ],
];

const VARIANTS: Array<[string, () => Record<string, unknown>]> = [
  ['default colors', () => ({})],
  ['custom colors', () => ({ foreground: 'rgb(20,40,120)', background: 'rgb(250,240,200)' })],
  ['light on dark', () => ({ foreground: 'rgb(255,255,255)', background: 'rgb(0,60,0)' })],
  ['a data-URI logo', () => ({ logo, foreground: 'rgb(90,0,90)' })],
];

describe('served PNGs decode to the standard payload of every type', () => {
  for (const [label, type, data, expected] of CASES) {
    it(label, async () => {
      for (const [variant, style] of VARIANTS) {
        const code = await create({ type, data, ...style() });
        const res = await fetchImage(server, `/qr/${code.slug}`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
        expect(await decodeImage(res.body), variant).toBe(expected ?? scanAddress(code.slug));
      }
    });
  }
});

describe('image options and headers', () => {
  it('serves SVG that decodes once rasterized, with and without a logo, and safe headers', async () => {
    for (const style of [{}, { logo, foreground: 'rgb(0,0,140)', background: 'rgb(255,255,235)' }]) {
      const code = await create({ type: 'text', data: 'vector code', ...style });
      const res = await fetchImage(server, `/qr/${code.slug}?format=svg`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(await decodeSvg(res.body)).toBe('vector code');
    }
    const link = await create({ type: 'link', data: 'https://example.org/' });
    expect(await decodeSvg((await fetchImage(server, `/qr/${link.slug}?format=svg`)).body)).toBe(scanAddress(link.slug));
  });

  it('references a URL logo from the SVG only, attribute-escaped, and never in the PNG', async () => {
    const code = await create({ type: 'text', data: 'remote logo', logo: 'https://cdn.example.com/logo.png?a=1&b=<x>"y' });
    const svg = (await fetchImage(server, `/qr/${code.slug}?format=svg`)).body.toString();
    expect(svg).toContain('<image href="https://cdn.example.com/logo.png?a=1&amp;b=%3Cx%3E%22y"');
    expect(svg).not.toMatch(/<x>|"y/);
    const png = await fetchImage(server, `/qr/${code.slug}`);
    expect(await decodeImage(png.body)).toBe('remote logo');
  });

  it('decodes with a jpeg logo too', async () => {
    const code = await create({ type: 'text', data: 'jpeg logo', logo: await makeLogo('jpeg') });
    expect(await decodeImage((await fetchImage(server, `/qr/${code.slug}`)).body)).toBe('jpeg logo');
  });

  it('sizes the image by ?size at the nearest fixed step, 64–2048, default 300, and refuses other formats', async () => {
    const code = await create({ type: 'text', data: 'sizes' });
    for (const [query, side] of [
      ['', 300],
      ['?size=120', 128],
      ['?size=290', 300],
      ['?size=5', 64],
      ['?size=99999', 2048],
    ] as const) {
      const res = await fetchImage(server, `/qr/${code.slug}${query}`);
      const meta = await sharp(res.body).metadata();
      expect([meta.width, meta.height]).toEqual([side, side]);
      if (side >= 120) expect(await decodeImage(res.body)).toBe('sizes');
    }
    const svg = (await fetchImage(server, `/qr/${code.slug}?format=svg&size=500`)).body.toString();
    expect(svg).toMatch(/<svg[^>]* width="512" height="512"/);
    expect((await fetchImage(server, `/qr/${code.slug}?format=gif`)).status).toBe(400);
    expect((await fetchImage(server, `/qr/${code.slug}?size=big`)).status).toBe(400);
  });

  it('answers HEAD without a body and 404 for unknown codes', async () => {
    const code = await create({ type: 'text', data: 'head' });
    const head = await fetchImage(server, `/qr/${code.slug}`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
    expect(head.body.length).toBe(0);
    for (const path of ['/qr/doesNotExist1', '/qr/doesNotExist1?format=svg', '/qr/%3Cscript%3E', '/qr/doesNotExist1/scan']) {
      expect((await fetchImage(server, path)).status).toBe(404);
    }
    expect((await fetchImage(server, `/qr/${code.slug}/scan`)).status).toBe(404); // not a link code
  });
});

async function waitForScans(id: number, expected: number) {
  const deadline = Date.now() + 10_000; // the writer thread starts on the first batch, slowly on a loaded machine
  for (;;) {
    const res = await server.call('GET', `/api/qr/${id}`, { key });
    if (res.body.details.scans >= expected || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('link codes count scans through their tracking address', () => {
  it('redirects every scan, counts browsers, not bots or HEAD', async () => {
    const code = await create({ type: 'link', data: { url: 'https://example.com/menu?table=4' } });
    const visit = (ua: string, method = 'GET') =>
      server.visit(`/qr/${code.slug}/scan`, { method, headers: { 'user-agent': ua, 'accept-language': 'fr-FR,fr;q=0.9' } });
    for (let i = 0; i < 3; i++) {
      const res = await visit(BROWSER);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('https://example.com/menu?table=4');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await visit(BOT)).status).toBe(302);
    expect((await visit(BROWSER, 'HEAD')).status).toBe(302);

    const body = await waitForScans(code.id, 3);
    await new Promise((resolve) => setTimeout(resolve, 200)); // a bot or HEAD scan would have landed by now
    const after = await server.call('GET', `/api/qr/${code.id}`, { key });
    expect(after.body.details.scans).toBe(3);
    expect(after.body.data.clicks).toBe(3);
    expect(after.body.data.uniqueClicks).toBe(1);
    expect(body.data.topBrowsers).not.toBe(0);
    for (const counts of [after.body.data.topBrowsers, after.body.data.topOs, after.body.data.topReferrers, after.body.data.topCountries]) {
      expect(Object.values(counts).reduce((sum: number, n) => sum + Number(n), 0)).toBe(3);
      for (const n of Object.values(counts)) expect(n).toEqual(expect.any(String));
    }
    expect(after.body.data.socialCount).toMatchObject({ facebook: 0, twitter: 0, instagram: 0 });
    const list = await server.call('GET', '/api/qr?limit=1', { key });
    expect(list.body.data.qrs[0]).toMatchObject({ id: code.id, scans: 3 });
  });

  it('follows an update to a new destination at once, and stops after delete', async () => {
    const code = await create({ type: 'link', data: 'https://example.com/old' });
    const go = () => server.visit(`/qr/${code.slug}/scan`, { headers: { 'user-agent': BROWSER } });
    expect((await go()).headers.location).toBe('https://example.com/old');
    const before = await fetchImage(server, `/qr/${code.slug}`);
    const updated = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: { url: 'https://example.net/new' } } });
    expect(updated.status).toBe(200);
    expect((await go()).headers.location).toBe('https://example.net/new');
    // The printed code stays valid: it still encodes the same tracking address.
    expect(await decodeImage((await fetchImage(server, `/qr/${code.slug}`)).body)).toBe(await decodeImage(before.body));
    await server.call('DELETE', `/api/qr/${code.id}/delete`, { key });
    expect((await go()).status).toBe(404);
  });
});

describe('QR images', () => {
  it('render at most one image per size step however many sizes are asked for', async () => {
    const res = await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: 'many sizes' } });
    const slug = new URL(res.body.link).pathname.split('/')[2]!;
    const sizes = Array.from({ length: 120 }, (_, i) => 40 + i * 17); // 40…2063, every one distinct
    const images = await Promise.all(sizes.map((size) => fetchImage(server, `/qr/${slug}?size=${size}`)));
    expect(images.every((image) => image.status === 200)).toBe(true);
    const distinct = new Set(images.map((image) => createHash('sha256').update(image.body).digest('hex')));
    expect(distinct.size).toBe(SIZE_STEPS.length);
    let cached = 0;
    server.app.qrCaches.images.deleteWhere((k) => (k.includes(slug) && cached++, false));
    expect(cached).toBe(SIZE_STEPS.length);
  });
});
