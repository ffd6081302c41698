import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSetupToken } from '../../src/features/session/repo.js';
import { chromiumPresent, launchChromium, startBrowserServer, startSite, type Site } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, settle, watchConsole } from '../helpers/dashboard.js';
import { accountMenu, openPage } from '../helpers/nav.js';
import { decodeImage } from '../helpers/qr-images.js';
import type { TestServer } from '../helpers/server.js';

const EMAIL = 'owner@example.com';
const PASSWORD = 'correct horse battery';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * The dashboard end to end in Chromium, one owner's story in order: first-account setup, a link with targeting,
 * its click on the chart, a QR code whose downloaded PNG decodes, edit, delete, sign out, an expired session.
 * Every page is captured at 1280 and 390 px and checked with axe; the console must stay free of errors.
 */
describe.skipIf(!chromiumPresent())('dashboard in Chromium', () => {
  let server: TestServer;
  let site: Site;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${server.url}/app${path}`;
  let linkId = 0;

  beforeAll(async () => {
    await ensureWebBuilt();
    [server, site, browser] = await Promise.all([startBrowserServer({ RATE_LIMIT_MAX: '100000' }), startSite(), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })).newPage();
    page.setDefaultTimeout(15_000); // the suite shares two cores
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.close(), site?.close()]);
  });

  it('sends a visitor without a session to sign-in, and makes the first account through the setup address', async () => {
    await page.goto(app('/links'));
    await page.waitForURL(/\/app\/signin\?next=%2Flinks$/);
    await expect.poll(() => page.textContent('.note')).toContain('setup address');
    await capture(page, 'signin', axe);

    await page.goto(app(`/setup?token=${await readSetupToken(server.ctx.db)}`));
    await capture(page, 'setup', axe);
    // The session probe answers 200 signed out too: Chromium logs no failed request on these pages.
    expect(consoleErrors, 'console of the sign-in and setup pages').toEqual([]);
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
    await expect.poll(() => page.textContent('.who')).toContain(EMAIL);
    await capture(page, 'home-empty', axe);
  }, 90_000);

  it('creates a link with targeting and parameters, and shows a visit on its chart', async () => {
    await page.click('text=New link');
    await page.fill('#url', `${site.url}/landing`);
    await page.fill('#custom', 'dash-link');
    await page.fill('#title', 'Spring sale');
    await page.click('summary:has-text("Targeting")');
    await page.click('text=Add device');
    await page.fill('#device-0-key', 'iphone');
    await page.fill('#device-0-value', `${site.url}/iphone`);
    await page.click('text=Add country');
    await page.fill('#geo-0-key', 'germany');
    await page.fill('#geo-0-value', `${site.url}/de`);
    await page.click('summary:has-text("Parameters")');
    await page.fill('#utm-utm_source', 'newsletter');
    await page.click('text=Apply to parameters');
    await expect.poll(() => page.inputValue('#param-0-value')).toBe('newsletter');
    await page.click('summary:has-text("Social card")');
    await page.fill('#metatitle', 'Spring sale at the shop');
    await capture(page, 'link-new', axe);
    await page.click('button:text("Create link")');
    await page.click('text=Open the link’s page');
    await page.waitForURL(/\/app\/links\/\d+$/);
    linkId = Number(page.url().split('/').pop());
    await expect.poll(() => page.textContent('.summary')).toContain('Device iphone');

    // Headless Chromium says so in its user agent, and bots are not counted: the visitor is a phone's browser.
    const visitor = await (await browser.newContext({ userAgent: IPHONE })).newPage();
    await visitor.goto(`${server.url}/dash-link`);
    await visitor.waitForURL(`${site.url}/iphone?utm_source=newsletter`);
    await visitor.context().close();
    await server.ctx.clicks.flush();

    await page.reload();
    await expect.poll(() => page.textContent('[data-testid=range-clicks]')).toBe('1');
    expect(await page.textContent('[data-testid=total-clicks]')).toBe('1');
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await capture(page, 'link-detail', axe);
  }, 90_000);

  it('lists, searches and edits the link', async () => {
    await page.click('nav >> text=Links');
    await page.fill('#search', 'nothing-like-this');
    await expect.poll(() => page.textContent('main')).toContain('0 links');
    await page.fill('#search', 'dash');
    await expect.poll(() => page.locator('table.links tbody tr').count()).toBe(1);
    await capture(page, 'links', axe);

    await page.click(`a[aria-label="Edit dash-link"]`);
    await page.waitForURL(app(`/links/${linkId}/edit`));
    await expect.poll(() => page.inputValue('#url')).toBe(`${site.url}/landing`);
    await capture(page, 'link-edit', axe);
    await page.fill('#title', 'Summer sale');
    await page.click('button:text("Save changes")');
    await page.waitForURL(app(`/links/${linkId}`));
    await expect.poll(() => page.textContent('h1')).toBe('Summer sale');
    // Fields the API does not return (here the parameters) were left as they were.
    const detail = await server.visit('/dash-link', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' } });
    expect(detail.headers.location).toBe(`${site.url}/landing?utm_source=newsletter`);
  }, 60_000);

  it('creates a QR code with a live preview, and its downloaded PNG decodes to the tracking address', async () => {
    await page.click('nav >> text=QR codes');
    await capture(page, 'qr-empty', axe);
    await page.click('text=New QR code');
    await page.fill('#qr-url', `${site.url}/qr-target`);
    await page.fill('#qr-name', 'Poster');
    await page.locator('.qr-preview img').waitFor();
    await capture(page, 'qr-new', axe);
    await page.click('button:text("Create QR code")');
    await page.waitForURL(/\/app\/qr\/\d+$/);
    await page.locator('img.qr-image').waitFor();
    await capture(page, 'qr-detail', axe);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download PNG')]);
    const content = await decodeImage(readFileSync((await download.path())!));
    expect(content).toMatch(new RegExp(`^${server.url}/`));
    const scan = await server.visit(new URL(content!).pathname);
    expect(scan.headers.location).toBe(`${site.url}/qr-target`);
    await page.click('nav >> text=QR codes');
    await expect.poll(() => page.locator('.qr-list li').count()).toBe(1);
    await capture(page, 'qr-list', axe);
  }, 90_000);

  it('shows the overview and the account, and makes a new API key', async () => {
    await page.click('nav >> text=Overview');
    await expect.poll(() => page.textContent('.top-links')).toContain('Summer sale');
    await capture(page, 'home', axe);
    await captureDark(page, 'home-dark', axe); // the system's dark mode: contrast is checked there too
    await openPage(page, 'Account');
    await page.fill('#key-name', 'Everything');
    await page.check('#key-full');
    await page.click('button:text("Create key")');
    const key = await page.locator('[data-testid=api-key]').textContent();
    expect((await server.call('GET', '/api/account', { key: key! })).status).toBe(200);
    await capture(page, 'account', axe);
  }, 60_000);

  it('adds a campaign, a channel and a pixel, and shows the domains with their DNS instruction', async () => {
    const add = async (nav: string, fields: Record<string, string>, button: string, row: string) => {
      await openPage(page, nav);
      for (const [field, value] of Object.entries(fields)) await page.fill(`#new-${field}`, value);
      await page.click(`button:text("${button}")`);
      await expect.poll(() => page.textContent('table')).toContain(row);
      await capture(page, nav.toLowerCase(), axe);
    };
    await add('Campaigns', { name: 'Spring', slug: 'spring-rotator' }, 'Add campaign', '/r/spring-rotator');
    await add('Channels', { name: 'Newsletters', description: 'Monthly' }, 'Add channel', 'Newsletters');
    await add('Pixels', { name: 'Shop tag', tag: 'GTM-1234' }, 'Add pixel', 'GTM-1234');
    await openPage(page, 'Domains');
    await expect.poll(() => page.textContent('.note')).toContain('CNAME');
    await capture(page, 'domains', axe);
  }, 60_000);

  it('deletes the link from the table after asking', async () => {
    await page.click('nav >> text=Links');
    await page.click('button:text("Delete")');
    await page.click('button:text("Delete dash-link")');
    await expect.poll(() => page.textContent('main')).toContain('0 links');
    expect((await server.visit('/dash-link')).status).toBe(404);
  });

  it('signs out, signs in again, and returns to sign-in when the session expires', async () => {
    await accountMenu(page, 'Sign out');
    await page.waitForURL(app('/signin'));
    await page.goto(app('/qr'));
    await page.waitForURL(/\/app\/signin\?next=%2Fqr$/);
    await page.fill('#email', EMAIL);
    await page.fill('#password', 'wrong password');
    await page.click('button[type=submit]');
    await page.locator('[role=alert]').waitFor();
    await capture(page, 'signin-error', axe);
    consoleErrors.splice(0); // the refused sign-in's 401 is reported by Chromium as a failed resource
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(app('/qr'));

    await server.ctx.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    await page.click('nav >> text=Links');
    await page.waitForURL(/\/app\/signin\?next=%2Flinks$/);
    await settle(page);
    consoleErrors.splice(0); // likewise the expired session's 401
  }, 60_000);

  it('found no serious or critical accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe).length).toBeGreaterThanOrEqual(38);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
