import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, freePort, launchChromium } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { PASSWORD, signIn } from '../helpers/session.js';
import { startTlsProxy, type TlsProxy } from '../helpers/tls-proxy.js';

const DESTINATION = 'https://destination.test/landing';

/**
 * Issue 23 §2 in Chromium, with the README's layout: short links on `sho.rt`, the dashboard on `app.sho.rt` (both
 * mapped to 127.0.0.1). An attacker's pixel link on `sho.rt` runs a tag that plants the attacker's session token as
 * `redirectory_session` for `domain=sho.rt`; the victim then signs in on `app.sho.rt`. Before the fix both cookies
 * went to the dashboard, the planted (older) one first, and the dashboard ran as the attacker.
 */
describe.skipIf(!chromiumPresent())('a session cookie planted by a tag on the short domain', () => {
  let browser: Browser;
  beforeAll(async () => {
    await ensureWebBuilt();
    browser = await launchChromium(['--host-resolver-rules=MAP sho.rt 127.0.0.1, MAP app.sho.rt 127.0.0.1']);
  }, 180_000); // a first build of the dashboard
  afterAll(() => browser?.close());

  /** A server (behind the TLS proxy for https) at BASE_URL {scheme}://sho.rt:{port}, DASHBOARD_URL {scheme}://app.sho.rt:{port}. */
  async function layout(scheme: 'http' | 'https'): Promise<{ server: TestServer; port: number; proxy?: TlsProxy }> {
    const proxy = scheme === 'https' ? await startTlsProxy() : undefined;
    const port = proxy?.port ?? (await freePort());
    const env = { BASE_URL: `${scheme}://sho.rt:${port}`, DASHBOARD_URL: `${scheme}://app.sho.rt:${port}`, RATE_LIMIT_MAX: '100000' };
    const server = await startServer(env, proxy ? {} : { port });
    proxy?.forwardTo(server.url);
    return { server, port, proxy };
  }

  /** The attacker's account, signed in (its token to plant), with a pixel link whose tag plants it on the victim's browser. */
  async function attackerLink(server: TestServer, dashboardHost: string): Promise<{ email: string; link: string; alias: string; token: string }> {
    const { email, apiKey } = await server.user();
    await setPassword(server.ctx, email, PASSWORD);
    const token = (await signIn(server, email, PASSWORD, dashboardHost)).cookie.split('=')[1]!;
    const pixel = await server.call('POST', '/api/pixel/add', { key: apiKey, body: { type: 'tagmanagerpixel', name: 'GTM', tag: 'GTM-PLANT' } });
    const link = await server.call('POST', '/api/url/add', {
      key: apiKey,
      body: { url: DESTINATION, custom: 'planted-here', pixels: [pixel.body.id] },
    });
    expect(link.status, link.text).toBe(200);
    return { email, link: link.body.shorturl, alias: 'planted-here', token };
  }

  async function victimBrowser(token: string): Promise<{ context: BrowserContext; page: Page; codes: string[] }> {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const planted = `redirectory_session=${token}; domain=sho.rt; path=/`;
    await context.route('https://www.googletagmanager.com/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: `document.cookie = ${JSON.stringify(planted)};` }),
    );
    await context.route('https://destination.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Destination</title>' }));
    const page = await context.newPage();
    page.setDefaultTimeout(15_000); // the suite shares two cores
    const codes: string[] = [];
    page.on('response', (res: Response) => {
      if (res.status() === 401)
        void res.json().then(
          (body: { code: string }) => codes.push(body.code),
          () => {},
        );
    });
    return { context, page, codes };
  }

  async function signInThroughForm(page: Page, origin: string, email: string): Promise<void> {
    await page.goto(`${origin}/app/signin`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
  }

  for (const scheme of ['http', 'https'] as const) {
    it(`${scheme}: the dashboard never runs as the attacker after the victim signs in`, async () => {
      const { server, port, proxy } = await layout(scheme);
      try {
        const dashboardOrigin = `${scheme}://app.sho.rt:${port}`;
        const attacker = await attackerLink(server, `app.sho.rt:${port}`);
        const victim = await server.user();
        await setPassword(server.ctx, victim.email, PASSWORD);
        const { context, page, codes } = await victimBrowser(attacker.token);

        // The victim follows the attacker's link: its tag plants the cookie for every host of sho.rt.
        await page.goto(attacker.link);
        await page.waitForURL(DESTINATION);
        const plantedCookie = (await context.cookies(dashboardOrigin)).find((c) => c.name === 'redirectory_session' && c.domain === '.sho.rt');
        expect(plantedCookie?.value).toBe(attacker.token);

        await signInThroughForm(page, dashboardOrigin, victim.email);
        // A fresh load asks the server who is signed in, with every cookie the browser holds for app.sho.rt.
        await page.goto(`${dashboardOrigin}/app/`);
        if (scheme === 'http') {
          // Two session cookies: refused and expired, so the dashboard asks for a sign-in, which then holds alone.
          await page.waitForURL(/\/app\/signin/);
          await expect.poll(() => codes).toContain('session_ambiguous');
          expect((await context.cookies(dashboardOrigin)).filter((c) => c.name === 'redirectory_session')).toEqual([]);
          await signInThroughForm(page, dashboardOrigin, victim.email);
          await page.goto(`${dashboardOrigin}/app/`);
        }
        await expect.poll(() => page.textContent('.who')).toContain(victim.email);
        expect(await page.textContent('.who')).not.toContain(attacker.email);
        await expect.poll(() => page.textContent('main')).toContain('No links yet');
        expect(await page.textContent('main')).not.toContain(attacker.alias);
        if (scheme === 'https') {
          // The session is the __Host- cookie, which only app.sho.rt itself can set; the planted one is still there, unread.
          const cookies = await context.cookies(dashboardOrigin);
          expect(cookies.find((c) => c.name === '__Host-redirectory_session')).toMatchObject({
            domain: 'app.sho.rt',
            path: '/',
            secure: true,
            httpOnly: true,
            sameSite: 'Strict',
          });
          expect(cookies.find((c) => c.name === 'redirectory_session')?.value).toBe(attacker.token);
          expect(codes).not.toContain('session_ambiguous');
        }
        await context.close();
      } finally {
        await server.close();
        await proxy?.close();
      }
    }, 120_000);
  }
});
