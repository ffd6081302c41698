import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountState } from './helpers/account-state.js';
import { startServer, type TestServer } from './helpers/server.js';

/** URLs a caller gives in any feature (links, targets, splash, overlay, bio, domain, QR): never fetched, only http(s). */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server?.close());

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('user-supplied URLs', () => {
  it('are never fetched by the server: links, targets, images, logos, avatars, buttons and domain redirects', async () => {
    const hits: string[] = [];
    const canary: Server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    canary.listen(0, '127.0.0.1');
    await once(canary, 'listening');
    const address = canary.address();
    const at = (path: string) => `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/${path}`;
    try {
      const k = (await server.user()).apiKey;
      const add = async (path: string, body: Record<string, unknown>) => {
        const res = await server.call('POST', path, { key: k, body });
        expect(res.status, `${path} ${res.text}`).toBe(200);
        return res.body;
      };
      const domain = `fetch${process.pid}.example.org`;
      await add('/api/domain/add', { domain: `https://${domain}`, redirectroot: at('root'), redirect404: at('404') });
      const splash = await add('/api/splash/add', { name: 'canary', image: at('splash.png') });
      const overlay = await add('/api/overlay/add', { type: 'message', name: 'canary', button_link: at('button') });
      const pixel = await add('/api/pixel/add', { type: 'analyticspixel', name: 'canary', tag: 'G-1' });
      const campaign = await add('/api/campaign/add', { name: 'canary', slug: `canary-${process.pid}`, public: true });
      const common = {
        url: at('long'),
        metaimage: at('meta.png'),
        campaign: campaign.id,
        devicetarget: [{ device: 'iphone', link: at('device') }],
        languagetarget: [{ language: 'fr', link: at('language') }],
        geotarget: [{ location: 'germany', link: at('geo') }],
      };
      const aliases: string[] = [];
      for (const [n, extra] of [
        {},
        { type: 'frame' },
        { type: String(splash.id) },
        { type: `overlay-${overlay.id}` },
        { pixels: [pixel.id] },
      ].entries()) {
        aliases.push((await add('/api/url/add', { ...common, ...extra, custom: `canary-${process.pid}-${n}` })).shorturl.split('/').pop());
      }
      await add('/api/bio/add', {
        alias: `canary-bio-${process.pid}`,
        name: 'canary',
        avatar: at('avatar.png'),
        links: [{ title: 'x', url: at('bio-link') }],
      });
      const codes = [await add('/api/qr/add', { type: 'link', data: { url: at('qr') }, logo: at('logo.png') })];
      codes.push(await add('/api/qr/add', { type: 'text', data: 'canary', logo: at('logo2.png') }));

      const visits = [...aliases, `canary-bio-${process.pid}`, `r/canary-${process.pid}`, new URL(campaign.list).pathname.slice(1)];
      for (const code of codes) {
        const path = new URL(code.link).pathname.slice(1);
        visits.push(path, `${path}?format=svg`, `${path}?size=1024`, `${path}/scan`);
      }
      for (const path of visits) {
        for (const agent of [BROWSER, 'facebookexternalhit/1.1', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)']) {
          expect((await server.visit(`/${path}`, { headers: { 'user-agent': agent, 'accept-language': 'fr' } })).status).toBeLessThan(500);
        }
      }
      for (const path of ['/', '/nothing-here']) await server.visit(path, { headers: { host: domain } });
      await accountState(server, k, (await server.call('GET', '/api/account', { key: k })).body.data.id);
      await server.ctx.clicks.flush();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hits).toEqual([]);
    } finally {
      canary.close();
    }
  });

  const NOT_HTTP = [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com/x',
    '//evil.example/x',
    'vbscript:msgbox(1)',
    'blob:https://example.com/x',
    'about:blank',
    'mailto:a@example.com',
  ];

  it('must be http(s) in every field that takes one, on add and update', async () => {
    const k = (await server.user()).apiKey;
    const userId = (await server.call('GET', '/api/account', { key: k })).body.data.id;
    const link = (await server.call('POST', '/api/url/add', { key: k, body: { url: 'https://example.com/ok' } })).body.id;
    const domain = (await server.call('POST', '/api/domain/add', { key: k, body: { domain: `https://schemes${process.pid}.example.org` } })).body.id;
    const ok = 'https://example.com/ok';
    let n = 0;
    const fields: Array<[string, string, (bad: string) => Record<string, unknown>]> = [
      ['POST', '/api/url/add', (bad) => ({ url: bad })],
      ['PUT', `/api/url/${link}/update`, (bad) => ({ url: bad })],
      ['POST', '/api/url/add', (bad) => ({ url: ok, geotarget: [{ location: 'germany', link: bad }] })],
      ['POST', '/api/url/add', (bad) => ({ url: ok, devicetarget: [{ device: 'iphone', link: bad }] })],
      ['PUT', `/api/url/${link}/update`, (bad) => ({ url: ok, languagetarget: [{ language: 'fr', link: bad }] })],
      ['POST', '/api/url/add', (bad) => ({ url: ok, metaimage: bad })],
      ['POST', '/api/splash/add', (bad) => ({ name: 's', image: bad })],
      ['POST', '/api/overlay/add', (bad) => ({ type: 'message', name: 'o', button_link: bad })],
      ['POST', '/api/bio/add', (bad) => ({ alias: `schemes-${++n}`, name: 'b', avatar: bad })],
      ['POST', '/api/bio/add', (bad) => ({ alias: `schemes-${++n}`, name: 'b', links: [{ title: 't', url: bad }] })],
      ['POST', '/api/domain/add', (bad) => ({ domain: `https://s${++n}.example.org`, redirectroot: bad })],
      ['PUT', `/api/domain/${domain}/update`, (bad) => ({ redirect404: bad })],
      ['POST', '/api/qr/add', (bad) => ({ type: 'link', data: { url: bad } })],
      ['POST', '/api/qr/add', (bad) => ({ type: 'text', data: 'x', logo: bad })],
    ];
    const before = await accountState(server, k, userId);
    for (const [method, path, body] of fields) {
      for (const bad of NOT_HTTP) {
        const res = await server.call(method, path, { key: k, body: body(bad) });
        expect(res.status, `${method} ${path} ${JSON.stringify(body(bad))}`).toBe(400);
      }
    }
    expect(await accountState(server, k, userId)).toEqual(before);
  });
});
