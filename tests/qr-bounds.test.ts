import sharp from 'sharp';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, decodeSvg, embeddedLogoSize, largeLogo, noiseLogo, truncatedLogo } from './helpers/qr-images.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function create(body: Record<string, unknown>): Promise<{ id: number; slug: string }> {
  const res = await server.call('POST', '/api/qr/add', { key, body });
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id, slug: new URL(res.body.link).pathname.split('/')[2]! };
}

let clientCounter = 0;
const nextClient = () => `203.0.113.${++clientCounter}`;

async function image(path: string, client: string) {
  const res = await request(`${server.url}${path}`, { headers: { host: TEST_HOST, 'x-forwarded-for': client } });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

describe('QR logos are bounded', () => {
  it('refuses a logo over 256 KB or over 1024×1024 pixels with a 400 naming the limit, on add and update', async () => {
    const code = await create({ type: 'text', data: 'bounded logo' });
    const cases: Array<[string, string]> = [
      [await noiseLogo(320), '256 KB'],
      [await largeLogo(1100), '1024×1024 pixels'],
    ];
    for (const [logo, limit] of cases) {
      const added = await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: 'x', logo } });
      expect(added.status, limit).toBe(400);
      expect(added.body).toEqual({ error: 1, message: expect.stringContaining(limit), code: 'qr_logo_invalid' });
      const updated = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: 'bounded logo', logo } });
      expect(updated.status, limit).toBe(400);
      expect(updated.body.message).toContain(limit);
    }
    expect((await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: 'bounded logo', logo: await largeLogo(1024) } })).status).toBe(
      200,
    );
  });

  it('renders large-but-allowed logos, stored no larger than they are ever drawn (431 px)', async () => {
    for (const logo of [await largeLogo(1024), await noiseLogo(290)]) {
      const code = await create({ type: 'link', data: 'https://example.com/large-logo', logo });
      const scan = `http://${TEST_HOST}/qr/${code.slug}/scan`;
      for (const size of [300, 2048]) {
        const png = await image(`/qr/${code.slug}?size=${size}`, nextClient());
        expect(png.status).toBe(200);
        expect((await sharp(png.body).metadata()).width).toBe(size);
        expect(await decodeImage(png.body), `size ${size}`).toBe(scan);
      }
      const svg = (await image(`/qr/${code.slug}?format=svg`, nextClient())).body;
      expect(await decodeSvg(svg)).toBe(scan);
      const [width, height] = await embeddedLogoSize(svg.toString());
      expect(Math.max(width, height)).toBeLessThanOrEqual(431);
    }
  });
});

describe('QR logos that do not decode', () => {
  const cases = [
    ['png', 50],
    ['png', 150],
    ['jpeg', 50],
    ['jpeg', 150],
  ] as const;

  it('refuses a truncated png or jpeg whose header reads, at or under 431 px and over, on add and update', async () => {
    const code = await create({ type: 'text', data: 'truncated logo' });
    for (const [format, side] of cases) {
      const logo = await truncatedLogo(format, side);
      const label = `${format} ${side * 4} px`;
      const added = await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: 'x', logo } });
      expect(added.status, label).toBe(400);
      expect(added.body, label).toEqual({ error: 1, message: `The logo is not a valid ${format} image.`, code: 'qr_logo_invalid' });
      const updated = await server.call('PUT', `/api/qr/${code.id}/update`, { key, body: { data: 'truncated logo', logo } });
      expect(updated.status, label).toBe(400);
      expect(updated.body.code, label).toBe('qr_logo_invalid');
    }
  });

  it('serves a code whose stored logo does not decode without the logo, in png and svg', async () => {
    for (const [format, side] of cases) {
      const code = await create({ type: 'link', data: 'https://example.com/stored-truncated' });
      // Stored as an earlier release did, before logos were decoded whole at the check.
      await server.ctx.db
        .updateTable('qr_codes')
        .set({ logo: await truncatedLogo(format, side) })
        .where('id', '=', code.id)
        .execute();
      const scan = `http://${TEST_HOST}/qr/${code.slug}/scan`;
      const png = await image(`/qr/${code.slug}?size=512`, nextClient());
      expect(png.status, `${format} ${side * 4} px`).toBe(200);
      expect(await decodeImage(png.body)).toBe(scan);
      expect((await image(`/qr/${code.slug}?format=svg`, nextClient())).status).toBe(200);
    }
  });
});

describe('QR image rendering per client', () => {
  const BUDGET = 120;

  it(`renders at most ${BUDGET} uncached images a minute for one client (429 page after), and still serves cached ones`, async () => {
    const codes = await Promise.all(Array.from({ length: 25 }, (_, i) => create({ type: 'text', data: `render budget ${i}` })));
    const variants = codes.flatMap((c) =>
      [64, 128, 256, 300, 512].flatMap((size) => [`/qr/${c.slug}?size=${size}`, `/qr/${c.slug}?size=${size}&format=svg`]),
    );
    const client = nextClient();
    const window = () => Math.floor(Date.now() / 60_000);
    const started = window();
    const statuses: number[] = [];
    let last;
    for (const path of variants) {
      last = await image(path, client);
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    expect(statuses.slice(0, BUDGET)).toEqual(Array(BUDGET).fill(200));
    // A fixed window may turn over during the loop; then the 429 comes later, but it comes.
    expect(statuses.indexOf(429)).toBe(window() === started ? BUDGET : statuses.length - 1);
    expect(last!.headers['content-type']).toContain('text/html');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.body.toString()).toContain('Too many requests');
    // Images already rendered are served to the same client; another client still gets new ones.
    expect((await image(variants[0]!, client)).status).toBe(200);
    const fresh = await image(variants[statuses.length - 1]!, nextClient());
    expect(fresh.status).toBe(200);
    expect(fresh.headers['content-type']).toBe(variants[statuses.length - 1]!.endsWith('svg') ? 'image/svg+xml; charset=utf-8' : 'image/png');
  });
});
