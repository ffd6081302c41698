import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import {
  accessibilityViolations,
  chromiumPresent,
  launchChromium,
  screenshot,
  startBrowserServer,
  startSite,
  type Site,
} from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, watchConsole } from '../helpers/dashboard.js';
import { openPage } from '../helpers/nav.js';
import { createLink } from '../helpers/grouping-fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { PASSWORD } from '../helpers/session.js';

/**
 * Splash pages, overlays and bio pages in the dashboard, their live previews, and the public pages they
 * share one look with (plus /docs). Dashboard pages go through `capture` (1280 and 390 px, axe); public pages
 * are opened under their own CSP, whose console must stay clean, and checked with axe in a CSP-bypassing context.
 */
/** Computed CSS values of an element; the tests' types have no DOM, so the page's own function is typed here. */
function styleOf(locator: Locator, names: string[]): Promise<Record<string, string>> {
  return locator.evaluate((element, list) => {
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(element);
    return Object.fromEntries(list.map((name) => [name, style[name]!]));
  }, names);
}

describe.skipIf(!chromiumPresent())('custom pages in the dashboard, and the public pages', () => {
  let server: TestServer;
  let site: Site;
  let browser: Browser;
  let page: Page;
  let key: string;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const preview = (selector: string) => `[data-testid=preview] ${selector}`;

  beforeAll(async () => {
    await ensureWebBuilt();
    [server, site, browser] = await Promise.all([startBrowserServer({ RATE_LIMIT_MAX: '100000' }), startSite(), launchChromium()]);
    const user = await server.user();
    key = user.apiKey;
    await setPassword(server.ctx, user.email, PASSWORD);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(15_000); // the suite shares two cores
    consoleErrors = watchConsole(page);
    await page.goto(`${server.url}/app/signin`);
    await page.fill('#email', user.email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
    consoleErrors.splice(0); // this file checks the pages after sign-in; dashboard.test.ts checks the sign-in page
  }, 180_000); // a first build of the dashboard
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.close(), site?.close()]);
  });

  /**
   * A public page at both widths under its real CSP (console watched; an error page's own status is the one
   * entry Chromium logs by design), then axe in a context that may inject it.
   */
  async function publicPage(path: string, name: string, check?: (p: Page) => Promise<void>, status = 200): Promise<void> {
    for (const width of [1280, 390]) {
      const visitor = await (await browser.newContext({ viewport: { width, height: 800 } })).newPage();
      const errors = watchConsole(visitor);
      await visitor.goto(`${server.url}${path}`);
      await check?.(visitor);
      await screenshot(visitor, `public-${name}`, true);
      expect(await visitor.evaluate<number>('document.documentElement.scrollWidth'), `${name} at ${width} px`).toBeLessThanOrEqual(width);
      expect(
        errors.filter((e) => !e.endsWith(`status of ${status} (Not Found)`)),
        `${name} at ${width} px`,
      ).toEqual([]);
      await visitor.context().close();
    }
    const checked = await (await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true })).newPage();
    await checked.goto(`${server.url}${path}`);
    axe[`public-${name}`] = await accessibilityViolations(checked);
    await checked.context().close();
  }

  it('creates a bio page whose preview follows the typing, then edits it', async () => {
    await openPage(page, 'Bio pages');
    await capture(page, 'bio-empty', axe);
    await page.click('text=New bio page');
    await page.fill('#bio-alias', 'ada');
    await expect.poll(() => page.textContent(preview('h1'))).toBe('ada');
    await page.fill('#bio-name', 'Ada Lovelace');
    await expect.poll(() => page.textContent(preview('h1'))).toBe('Ada Lovelace');
    await page.fill('#bio-description', 'Notes on the Analytical Engine');
    await expect.poll(() => page.textContent(preview('.bio p'))).toBe('Notes on the Analytical Engine');
    for (const [i, title] of ['Essays', 'Letters'].entries()) {
      await page.click('button:text("Add link")');
      await page.fill(`#bio-link-${i}-key`, title);
      await page.fill(`#bio-link-${i}-value`, `${site.url}/${title.toLowerCase()}`);
    }
    await expect.poll(() => page.locator(preview('ul.links a')).allTextContents()).toEqual(['Essays', 'Letters']);
    await capture(page, 'bio-new', axe);
    await page.click('button:text("Create bio page")');
    await page.waitForURL(/\/app\/bio$/);
    await expect.poll(() => page.textContent('table')).toContain(`${server.url}/ada`);
    await capture(page, 'bio-list', axe);

    await page.click('a[aria-label="Edit Ada Lovelace"]');
    await expect.poll(() => page.inputValue('#bio-link-1-value')).toBe(`${site.url}/letters`);
    await page.fill('#bio-description', 'Notes, letters and essays');
    await expect.poll(() => page.textContent(preview('.bio p'))).toBe('Notes, letters and essays');
    await capture(page, 'bio-edit', axe);
    await captureDark(page, 'bio-edit-dark', axe); // a fresh load: the form as last saved
    await page.click('button:text("Save changes")');
    await page.waitForURL(/\/app\/bio$/);
  }, 120_000);

  it('shows the public bio page with its links as buttons', async () => {
    await publicPage('/ada', 'bio', async (visitor) => {
      expect(await visitor.textContent('main p')).toBe('Notes, letters and essays');
      const button = visitor.getByRole('link', { name: 'Letters' });
      expect(await styleOf(button, ['display', 'backgroundColor', 'borderTopLeftRadius'])).toEqual({
        display: 'block',
        backgroundColor: 'rgb(11, 87, 208)',
        borderTopLeftRadius: '8px',
      });
      expect(await button.getAttribute('href')).toBe(`${site.url}/letters`);
    });
    // The system's dark mode: the page follows it, and its contrast is checked there too.
    const dark = await (await browser.newContext({ viewport: { width: 390, height: 800 }, colorScheme: 'dark', bypassCSP: true })).newPage();
    await dark.goto(`${server.url}/ada`);
    await screenshot(dark, 'public-bio-dark', true);
    axe['public-bio-dark'] = await accessibilityViolations(dark);
    await dark.context().close();
  }, 60_000);

  it('creates a splash page with a live preview, and a link shows it', async () => {
    await openPage(page, 'Splash pages');
    await page.click('text=New splash page');
    await page.fill('#splash-name', 'Spring promo');
    await expect.poll(() => page.textContent(preview('h1'))).toBe('Just a moment');
    await page.fill('#splash-title', 'Spring is here');
    await expect.poll(() => page.textContent(preview('h1'))).toBe('Spring is here');
    await page.fill('#splash-content', 'Everything is 20% off.\n\nUntil Sunday.');
    await expect.poll(() => page.locator(preview('p')).allTextContents()).toContain('Until Sunday.');
    await capture(page, 'splash-new', axe);
    await page.click('button:text("Create splash page")');
    await page.waitForURL(/\/app\/splash$/);
    await capture(page, 'splash-list', axe);

    const id = (await server.call('GET', '/api/splash', { key })).body.data.splash[0].id;
    const link = await createLink(server, key, { url: `${site.url}/spring`, type: String(id) });
    await publicPage(`/${link.alias}`, 'splash', async (visitor) => {
      expect(await visitor.textContent('h1')).toBe('Spring is here');
    });
  }, 120_000);

  it('creates a contact overlay whose preview shows its form, and a link shows it with a styled close button', async () => {
    await openPage(page, 'Overlays');
    await page.click('text=New overlay');
    await page.selectOption('#overlay-type', 'contact');
    await page.fill('#overlay-name', 'Questions');
    await page.fill('#overlay-message', 'Questions? Write to us.');
    await expect.poll(() => page.locator(preview('form')).count()).toBe(0);
    await page.fill('#overlay-email', 'team@example.com');
    await expect.poll(() => page.locator(preview('form')).count()).toBe(1);
    await capture(page, 'overlay-new', axe);
    await page.click('button:text("Create overlay")');
    await page.waitForURL(/\/app\/overlays$/);
    await expect.poll(() => page.textContent('table')).toContain('contact');
    await capture(page, 'overlay-list', axe);

    const id = (await server.call('GET', '/api/overlay', { key })).body.data.cta[0].id;
    const link = await createLink(server, key, { url: `${site.url}/under`, type: `overlay-${id}` });
    await publicPage(`/${link.alias}`, 'overlay', async (visitor) => {
      const close = visitor.getByRole('button', { name: 'Close' });
      expect(await styleOf(close, ['borderTopLeftRadius', 'borderTopStyle'])).toEqual({ borderTopLeftRadius: '6px', borderTopStyle: 'solid' });
      await screenshot(visitor, 'public-overlay-open');
      await close.click();
      await expect.poll(() => visitor.locator('#cta').isHidden()).toBe(true);
    });
  }, 120_000);

  it('deletes the splash page from its list after asking', async () => {
    await openPage(page, 'Splash pages');
    await page.click('button:text("Delete")');
    await page.click('button:text("Delete Spring promo")');
    await expect.poll(() => page.textContent('main')).toContain('No splash pages yet');
  });

  it('gives the password form, the site root, a campaign list and the 404 page the same look', async () => {
    const locked = await createLink(server, key, { url: `${site.url}/locked`, password: 'long enough' });
    await publicPage(`/${locked.alias}`, 'password', async (visitor) => {
      expect(await styleOf(visitor.locator('button[type=submit]'), ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(11, 87, 208)' });
    });
    await publicPage('/', 'root', async (visitor) => {
      expect(await visitor.getByRole('link', { name: 'Sign in to the dashboard' }).getAttribute('href')).toBe('/app');
    });
    await publicPage('/no-such-link', 'not-found', undefined, 404);
    const campaign = (await server.call('POST', '/api/campaign/add', { key, body: { name: 'Reading list', public: true } })).body.id;
    await server.call('POST', `/api/campaign/${campaign}/assign/${locked.id}`, { key });
    const list = (await server.call('GET', '/api/campaigns', { key })).body.data.campaigns[0].list as string;
    await publicPage(new URL(list).pathname, 'campaign', async (visitor) => {
      expect(await visitor.locator('ul.links a').count()).toBe(1);
    });
  }, 120_000);

  it('shows /docs titled Redirectory API, with our mark and no console error', async () => {
    await page.goto(`${server.url}/docs`);
    await page.locator('.swagger-ui .info').waitFor();
    expect(await page.title()).toBe('Redirectory API');
    const logo = await page.locator('.topbar-wrapper img').getAttribute('src');
    expect(Buffer.from(logo!.split(',')[1]!, 'base64').toString()).toContain('Redirectory API');
    expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(/favicon\.svg$/);
    await screenshot(page, 'public-docs');
  }, 60_000);

  it('found no accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe).length).toBeGreaterThanOrEqual(25);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
