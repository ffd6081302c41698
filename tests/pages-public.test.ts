import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateLinks } from '../src/features/links/invalidate.js';
import { startServer, type Reply, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>\'';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

async function api(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await server.call('POST', path, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function addLink(body: Record<string, unknown>): Promise<{ id: number; alias: string }> {
  const res = await api('/api/url/add', body);
  return { id: res.id, alias: new URL(res.shorturl).pathname.slice(1) };
}

const page = (path: string, headers: Record<string, string> = {}) => server.visit(path, { headers: { 'user-agent': BROWSER, ...headers } });

/** No user value reaches the markup unescaped, and every inline script is allowed by its hash and nothing else. */
function expectSafePage(res: Reply<string>, status = 200): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(res.text).not.toContain('<script>alert');
  expect(res.text).not.toContain('<img src=x');
  // Values are escaped, so no raw `"` or `>` can end an attribute early: outside quoted values no handler appears.
  for (const [tag] of res.text.matchAll(/<[a-zA-Z][^>]*>/g)) expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\son\w+\s*=/i);
  for (const [, code] of res.text.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    expect(code).not.toContain('alert');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(code!).digest('base64')}'`);
  }
}

const hostileMeta = {
  title: HOSTILE,
  description: HOSTILE,
  metatitle: HOSTILE,
  metadescription: HOSTILE,
  metaimage: 'https://img.example/a.png?x="><b>',
};

describe('frame links', () => {
  it('frames the (targeted) destination full-size with the meta title', async () => {
    const { alias } = await addLink({
      url: 'https://example.com/framed?a=1',
      type: 'frame',
      metatitle: 'Framed & "quoted"',
      devicetarget: [{ device: 'iphone', link: 'https://example.com/mobile' }],
    });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('<iframe class="full" src="https://example.com/framed?a=1"');
    expect(res.text).toContain('<title>Framed &amp; &quot;quoted&quot;</title>');
    expect(res.headers['content-security-policy']).toContain('frame-src http: https:');
    expect((await page(`/${alias}`, { 'user-agent': IPHONE })).text).toContain('src="https://example.com/mobile"');
  });

  it('never frames our own API, docs or admin pages, on the default or a branded domain', async () => {
    await api('/api/domain/add', { domain: 'https://brand.example.test' });
    for (const url of [
      'http://redirectory.test/api/account',
      'http://REDIRECTORY.test/docs/',
      'https://brand.example.test/admin',
      'http://redirectory.test/%61pi/x',
    ]) {
      const { alias } = await addLink({ url, type: 'frame' });
      const res = await page(`/${alias}`);
      expectSafePage(res);
      expect(res.text, url).not.toContain('<iframe');
      expect(res.text).toContain('cannot be shown inside a frame');
    }
    const { alias } = await addLink({ url: 'http://redirectory.test/some-link', type: 'frame' });
    expect((await page(`/${alias}`)).text).toContain('<iframe');
  });

  it('links our own API, docs or admin pages, never frames them, however they are spelled', async () => {
    const k = (await server.user()).apiKey;
    for (const url of [
      'HTTP://REDIRECTORY.TEST/API/account',
      'http://redirectory.test:80/docs',
      'http://redirectory.test/%61%70%69/account',
      'http://redirectory.test//api/account',
      'http://Redirectory.Test/Docs/',
      'http://redirectory.test/admin?x=1',
      'http://redirectory.test./api/account',
      'http://redirectory.test/./api/account',
      'http://redirectory.test/x/../api/account',
    ]) {
      const made = await server.call('POST', '/api/url/add', { key: k, body: { url, type: 'frame' } });
      expect(made.status, url).toBe(200);
      const page = await server.visit(new URL(made.body.shorturl).pathname, { headers: { 'user-agent': BROWSER } });
      expect(page.status, url).toBe(200);
      expect(page.text, url).not.toContain('<iframe');
      expect(page.text, url).toContain('cannot be shown inside a frame');
    }
  });

  it('escapes hostile titles', async () => {
    const { alias } = await addLink({ url: 'https://example.com/x', type: 'frame', ...hostileMeta });
    expectSafePage(await page(`/${alias}`));
  });
});

describe('splash links', () => {
  it('shows the default splash with a countdown and a link onward', async () => {
    const { alias } = await addLink({ url: 'https://example.com/after', type: 'splash', ...hostileMeta });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('<span id="count">5</span>');
    expect(res.text).toContain('<a id="go" href="https://example.com/after"');
    expect(res.text).toContain('<meta http-equiv="refresh" content="5;url=https://example.com/after">');
  });

  it("shows the account's own splash page, escaped", async () => {
    const splash = await api('/api/splash/add', {
      name: 'Promo',
      title: HOSTILE,
      content: `First ${HOSTILE}\n\nSecond paragraph`,
      image: 'https://img.example/promo.png',
    });
    const { alias } = await addLink({ url: 'https://example.com/after', type: String(splash.id) });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&#39;</h1>');
    expect(res.text).toContain('<p>Second paragraph</p>');
    expect(res.text).toContain('<img src="https://img.example/promo.png" alt="">');
  });
});

describe('overlay links', () => {
  it('frames the destination under a message with a button', async () => {
    const overlay = await api('/api/overlay/add', {
      type: 'message',
      name: 'CTA',
      message: HOSTILE,
      button_text: HOSTILE,
      button_link: 'https://shop.example/buy',
    });
    const { alias } = await addLink({ url: 'https://example.com/base', type: `overlay-${overlay.id}` });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('<iframe class="full" src="https://example.com/base"');
    expect(res.text).toContain('<div class="box" id="cta"');
    expect(res.text).toContain('href="https://shop.example/buy"');
  });

  it('a contact overlay links to the contact page, posting nowhere', async () => {
    const overlay = await api('/api/overlay/add', {
      type: 'contact',
      name: 'Contact',
      message: 'Write to us',
      button_link: 'https://example.com/contact',
    });
    const { alias } = await addLink({ url: 'https://example.com/base', type: `overlay-${overlay.id}` });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('Write to us');
    expect(res.text).toContain('href="https://example.com/contact"');
    expect(res.text).not.toContain('<form');
  });

  it('a contact overlay with an e-mail address shows a form and a link that open the mail client', async () => {
    const overlay = await api('/api/overlay/add', {
      type: 'contact',
      name: 'Mail',
      message: 'Write to us',
      button_text: 'Send it',
      email: 'team@example.com',
    });
    const { alias } = await addLink({ url: 'https://example.com/base', type: `overlay-${overlay.id}` });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('<form method="get" action="mailto:team@example.com" target="_top">');
    expect(res.text).toMatch(/<textarea id="cta-body" name="body"/);
    expect(res.text).toContain('>Send it</button>');
    expect(res.text).toContain('<a href="mailto:team@example.com" target="_top">team@example.com</a>');
    expect(String(res.headers['content-security-policy'])).toMatch(/form-action [^;]*mailto:/);

    await server.call('PUT', `/api/overlay/${overlay.id}/update`, { key, body: { email: 'sales@example.org' } });
    expect((await page(`/${alias}`)).text).toContain('action="mailto:sales@example.org"');
  });
});

describe('pixels', () => {
  it('fires the standard snippets, then forwards', async () => {
    const gtm = await api('/api/pixel/add', { type: 'tagmanagerpixel', name: 'GTM', tag: 'GTM-ABC123' });
    const fb = await api('/api/pixel/add', { type: 'socialnetworkpixel', name: 'FB', tag: '1234567890' });
    const { id, alias } = await addLink({ url: 'https://example.com/tracked', pixels: [gtm.id, fb.id], parameters: [{ name: 'p', value: '1' }] });
    const res = await page(`/${alias}`);
    expectSafePage(res);
    expect(res.text).toContain('https://www.googletagmanager.com/gtm.js?id=GTM-ABC123');
    expect(res.text).toContain(`fbq('init',"1234567890")`);
    expect(res.text).toContain('<img src="https://www.facebook.com/tr?id=1234567890&amp;ev=PageView&amp;noscript=1"');
    expect(res.text).toContain('<a id="go" href="https://example.com/tracked?p=1"');
    expect(res.text).toContain('<meta http-equiv="refresh" content="1;url=https://example.com/tracked?p=1">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('https://www.googletagmanager.com');
    expect(csp).toContain('https://connect.facebook.net');
    await server.ctx.clicks.flush();
    expect((await server.call('GET', `/api/url/${id}`, { key })).body.data.clicks).toBe(1);
  });

  it('skips tags that are not plain ids, even when written straight into the table', async () => {
    const { id: userId } = await server.user();
    const { id, alias } = await addLink({ url: 'https://example.com/raw' });
    const pixel = await server.ctx.db
      .insertInto('pixels')
      .values({ user_id: userId, type: 'analyticspixel', name: 'bad', tag: `G-1"><script>alert(1)</script>`, created_at: '2024-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.ctx.db.insertInto('link_pixels').values({ link_id: id, pixel_id: pixel.id }).execute();
    await invalidateLinks(server.ctx, [id]);
    const res = await page(`/${alias}`);
    expect(res.status).toBe(302);
  });
});

describe('social crawlers', () => {
  it('get the Open Graph page instead of the redirect, escaped', async () => {
    const { alias } = await addLink({ url: 'https://example.com/shared', ...hostileMeta });
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Twitterbot/1.0',
      'Slackbot-LinkExpanding 1.0',
      'WhatsApp/2.23',
      'Mozilla/5.0 (compatible; Discordbot/2.0)',
    ]) {
      const res = await page(`/${alias}`, { 'user-agent': ua });
      expectSafePage(res);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('<meta property="og:title" content="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;');
      expect(res.text).toContain(`<meta property="og:url" content="http://redirectory.test/${alias}">`);
      expect(res.text).toContain('<meta property="og:image" content="https://img.example/a.png?x=%22%3E%3Cb%3E">');
      expect(res.text).toContain('<meta name="twitter:card" content="summary_large_image">');
    }
  });
});

describe('bio pages', () => {
  it('shows name, description, avatar and http(s) links, escaped', async () => {
    await api('/api/bio/add', {
      alias: 'my-bio',
      name: HOSTILE,
      description: HOSTILE,
      avatar: 'https://img.example/me.png',
      links: [
        { title: HOSTILE, url: 'https://example.com/one' },
        { title: 'Two', url: 'https://example.com/two' },
      ],
    });
    const res = await page('/my-bio');
    expectSafePage(res);
    expect(res.text).toContain('<img class="avatar" src="https://img.example/me.png" alt="">');
    expect(res.text).toContain('<a href="https://example.com/two" rel="nofollow noopener">Two</a>');
  });

  it('never turns a stored non-http link into an href', async () => {
    const { id: userId } = await server.user();
    await server.ctx.db
      .insertInto('bio_pages')
      .values({
        user_id: userId,
        alias: 'raw-bio',
        name: 'Raw',
        links: JSON.stringify([
          { title: 'Bad', url: 'javascript:alert(1)' },
          { title: 3, url: {} },
        ]),
        created_at: '2024-01-01 00:00:00',
      })
      .execute();
    const res = await page('/raw-bio');
    expectSafePage(res);
    expect(res.text).not.toContain('javascript:');
    expect(res.text).toContain('<li>Bad</li>');
  });
});

describe('every page escapes and sends the security headers', () => {
  it('password form, expired page, 404 page and landing page', async () => {
    const locked = await addLink({ url: 'https://example.com/s', password: 'long enough', ...hostileMeta });
    expectSafePage(await page(`/${locked.alias}`));
    const expired = await addLink({ url: 'https://example.com/s', expiry: '2020-01-01 00:00:00', ...hostileMeta });
    expectSafePage(await page(`/${expired.alias}`), 410);
    expectSafePage(await page('/%3Cscript%3Ealert(1)%3C%2Fscript%3E'), 404);
    expectSafePage(await page('/x/y'), 404);
    expectSafePage(await page('/'));
  });
});
