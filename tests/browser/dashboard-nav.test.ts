import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, settle, watchConsole, useSessionCookie } from '../helpers/dashboard.js';
import { createLink } from '../helpers/grouping-fixtures.js';
import { signedInUser } from '../helpers/session.js';

/** Every page of the dashboard by the group it sits in, as a marketer looks for it. */
const GROUPS: Record<string, [label: string, path: string][]> = {
  '': [
    ['Overview', '/'],
    ['Links', '/links'],
    ['QR codes', '/qr'],
  ],
  Pages: [
    ['Bio pages', '/bio'],
    ['Splash pages', '/splash'],
    ['Overlays', '/overlays'],
  ],
  'Campaigns & channels': [
    ['Campaigns', '/campaigns'],
    ['Channels', '/channels'],
  ],
  Settings: [
    ['Domains', '/domains'],
    ['Pixels', '/pixels'],
    ['Tags', '/tags'],
    ['Import/Export', '/transfer'],
    ['Webhooks', '/webhooks'],
    ['Account', '/account'],
  ],
};

/**
 * The dashboard's header and keys in Chromium: at 1280 px the brand, six navigation entries and the account menu
 * share one row and every page is reached through its group's menu; at 390 px the header is one row and a
 * "Menu" panel holds the pages. Menus close on Escape (focus back on their button) and on a press outside.
 * `/`, `c`, `?` and Ctrl+K do what the shortcuts list says, and not while typing. Captured at both widths,
 * light and dark, menus open; axe and the console stay clean.
 */
describe.skipIf(!chromiumPresent())('navigation and keyboard in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let email: string;
  let linkId = 0;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const nav = 'nav[aria-label="Main"]';
  const groupButton = (label: string) => page.locator(`${nav} .nav-group > button:text-is("${label}")`);
  const navLink = (label: string) => page.locator(`${nav} a:text-is("${label}")`);
  /** A property of the focused element: its text, id or class. */
  const active = (property: 'textContent' | 'id' | 'className') => page.evaluate<string>(`document.activeElement?.${property}?.trim() ?? ''`);
  const focused = () => active('textContent');
  const focusedId = () => active('id');
  const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;

  /** The header's parts on one line: their vertical middles within a few pixels, the header itself one row tall. */
  async function oneRow(parts: string[]): Promise<void> {
    const middles = await Promise.all(parts.map(async (part) => ((b) => b.y + b.height / 2)(await box(part))));
    for (const middle of middles) expect(Math.abs(middle - middles[0]!), `${parts.join(', ')}: ${middles.join(', ')}`).toBeLessThan(4);
    expect((await box('header.top')).height).toBeLessThan(64);
  }

  beforeAll(async () => {
    await ensureWebBuilt();
    const owner = await signedInUser(rig.server, new URL(rig.server.url).host);
    email = owner.email;
    linkId = (await createLink(rig.server, owner.apiKey, { url: `${rig.site.url}/spring`, custom: 'spring-sale', title: 'Spring sale 2026' })).id;
    await createLink(rig.server, owner.apiKey, { url: `${rig.site.url}/autumn`, custom: 'autumn-deal', title: 'Autumn deal' });
    page = await rig.newPage();
    await useSessionCookie(page, rig.server.url, owner.cookie);
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard

  it('keeps the header to one row at 1280 px and reaches every page through the grouped menus', async () => {
    await page.goto(app('/'));
    await settle(page);
    await oneRow(['.brand', `${nav} .nav-list`, '.account-toggle']);
    expect(await page.locator(`${nav} .nav-list > li`).count()).toBe(6);
    expect(await page.locator('.menu-toggle').isVisible()).toBe(false);
    expect(await page.locator('.who').textContent()).toContain(email);

    for (const [group, pages] of Object.entries(GROUPS)) {
      for (const [label, path] of pages) {
        if (group) {
          expect(await navLink(label).isVisible(), `${label} hidden until ${group} opens`).toBe(false);
          await groupButton(group).click();
          expect(await groupButton(group).getAttribute('aria-expanded'), `${group} opens for ${label}`).toBe('true');
        }
        await navLink(label).click();
        await page.waitForURL((url) => url.pathname.replace(/\/$/, '') === `/app${path === '/' ? '' : path}`);
        expect(await navLink(label).getAttribute('aria-current'), label).toBe('page');
        expect(await page.locator(`${nav} [aria-current=page]`).count()).toBe(1);
        if (group) {
          // Arriving closes the menu, and the group of the page shown is marked.
          expect(await groupButton(group).getAttribute('aria-expanded')).toBe('false');
          expect(await groupButton(group).getAttribute('data-current')).toBe('true');
          expect(await page.locator(`${nav} .nav-group > button[data-current]`).count()).toBe(1);
        }
      }
    }
    await settle(page);
    await groupButton('Settings').click();
    await capture(page, 'nav-settings-open', axe);
    expect(await groupButton('Settings').getAttribute('aria-expanded')).toBe('true');
    await oneRow(['.brand', `${nav} .nav-list`, '.account-toggle']);
  }, 120_000);

  it('closes a menu on Escape with focus back on its button, on a press outside, and moves by arrow keys', async () => {
    await page.keyboard.press('Escape');
    expect(await groupButton('Settings').getAttribute('aria-expanded')).toBe('false');
    expect(await navLink('Domains').isVisible()).toBe(false);
    expect(await focused()).toBe('Settings');

    await groupButton('Pages').click();
    expect(await navLink('Bio pages').isVisible()).toBe(true);
    await page.mouse.click(640, 500); // the page below the header
    expect(await groupButton('Pages').getAttribute('aria-expanded')).toBe('false');
    expect(await navLink('Bio pages').isVisible()).toBe(false);

    // One menu at a time: opening another closes the first, since the press fell outside it.
    await groupButton('Pages').click();
    await groupButton('Settings').click();
    expect(await groupButton('Pages').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Escape');

    await groupButton('Settings').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Domains');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Pixels');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Account');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Domains');
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('Settings');
    expect(await groupButton('Settings').getAttribute('aria-expanded')).toBe('false');

    // The account menu: who is signed in, then Escape and a press outside close it.
    await page.click('.account-toggle');
    expect(await page.locator('#account-menu').isVisible()).toBe(true);
    expect(await page.locator('#account-menu').textContent()).toContain(email);
    await capture(page, 'nav-account-open', axe);
    await page.keyboard.press('Escape');
    expect(await page.locator('#account-menu').isVisible()).toBe(false);
    expect(await active('className')).toBe('account-toggle');
    await page.click('.account-toggle');
    await page.mouse.click(640, 500);
    expect(await page.locator('#account-menu').isVisible()).toBe(false);
  }, 60_000);

  it('keeps the header to one row between the two widths too', async () => {
    for (const width of [1024, 1200]) {
      await page.setViewportSize({ width, height: 800 });
      await oneRow(['.brand', `${nav} .nav-list`, '.account-toggle']);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${width} px`).toBeLessThanOrEqual(width);
    }
    for (const width of [768, 1023]) {
      await page.setViewportSize({ width, height: 800 });
      await oneRow(['.brand', '.menu-toggle', '.account-toggle']);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${width} px`).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps the header to one row at 390 px, with a Menu panel that opens, navigates and closes', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(app('/links'));
    await settle(page);
    await oneRow(['.brand', '.menu-toggle', '.account-toggle']);
    expect(await page.locator(`${nav} .nav-list`).isVisible()).toBe(false);

    await page.click('.menu-toggle');
    expect(await page.getAttribute('.menu-toggle', 'aria-expanded')).toBe('true');
    // Every page is in the panel at once, under its group's name.
    for (const pages of Object.values(GROUPS)) for (const [label] of pages) expect(await navLink(label).isVisible(), label).toBe(true);
    expect(await page.locator(`${nav} .nav-group-label`).allTextContents()).toEqual(['Pages', 'Campaigns & channels', 'Settings']);
    expect((await box(`${nav} .nav-list`)).width).toBeLessThanOrEqual(390);
    await navLink('Channels').click();
    await page.waitForURL(app('/channels'));
    await settle(page); // the page focuses its heading on arrival
    expect(await page.getAttribute('.menu-toggle', 'aria-expanded')).toBe('false');
    expect(await page.locator(`${nav} .nav-list`).isVisible()).toBe(false);

    await page.click('.menu-toggle');
    await page.keyboard.press('Escape');
    expect(await page.locator(`${nav} .nav-list`).isVisible()).toBe(false);
    expect(await active('className')).toBe('menu-toggle');
    await page.click('.menu-toggle');
    // A press beside the brand, outside the panel: the panel now reaches the bottom of an 800 px screen.
    const brand = await box('.brand');
    await page.mouse.click(brand.x + brand.width + 8, brand.y + brand.height / 2);
    expect(await page.locator(`${nav} .nav-list`).isVisible()).toBe(false);

    await page.click('.menu-toggle');
    await capture(page, 'nav-menu-panel', axe); // at 390 px the panel is open
    await page.keyboard.press('Escape');
  }, 60_000);

  it('answers /, c and ?, and not while typing or with a modifier', async () => {
    await page.goto(app('/channels'));
    await settle(page);
    // A page without a search field: `/` goes to the links list and focuses its search.
    await page.keyboard.press('/');
    await page.waitForURL(app('/links'));
    await expect.poll(focusedId).toBe('search');
    await page.keyboard.type('c/?');
    expect(await page.inputValue('#search')).toBe('c/?');
    expect(new URL(page.url()).pathname).toBe('/app/links');
    await page.fill('#search', '');

    await page.locator('h1').click();
    await page.keyboard.press('Alt+c');
    await page.keyboard.press('Control+/');
    expect(new URL(page.url()).pathname).toBe('/app/links');
    expect(await focusedId()).not.toBe('search');
    await page.keyboard.press('/');
    expect(await focusedId()).toBe('search'); // on the links list itself: no navigation, the field takes focus
    expect(new URL(page.url()).pathname).toBe('/app/links');

    await page.locator('h1').click();
    await page.keyboard.press('c');
    await page.waitForURL(app('/links/new'));

    await page.locator('h1').click();
    await page.keyboard.press('Shift+?');
    const help = page.locator('dialog[aria-label="Keyboard shortcuts"]');
    await help.waitFor();
    expect(await help.evaluate((d) => d.matches(':modal'))).toBe(true);
    const keys = await help.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent));
    expect(keys).toEqual(['/Search links', 'cCreate a link', 'Ctrl KJump to a page or a link', '?Show these shortcuts', 'EscClose a menu or dialog']);
    await capture(page, 'nav-shortcuts', axe);
    await page.keyboard.press('c'); // a dialog open: the keys behind it wait
    expect(new URL(page.url()).pathname).toBe('/app/links/new');
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);

    // The account menu lists the shortcuts too.
    await page.click('.account-toggle');
    await page.click('#account-menu >> text=Keyboard shortcuts');
    await help.waitFor();
    await help.locator('button:text("Close")').click();
    await expect.poll(() => help.count()).toBe(0);
  }, 60_000);

  it('opens the palette on Ctrl+K and jumps to a page by name and to a link by alias or title', async () => {
    await page.goto(app('/'));
    await settle(page);
    const palette = page.locator('dialog.palette');
    const combo = palette.locator('[role=combobox]');
    const options = () => palette.locator('[role=option]').allTextContents();

    await page.keyboard.press('Control+k');
    await palette.waitFor();
    expect(await combo.evaluate((input) => input.matches(':focus'))).toBe(true);
    expect(await palette.evaluate((d) => d.matches(':modal'))).toBe(true); // the page behind is inert: focus stays here
    expect(await combo.getAttribute('aria-expanded')).toBe('true');
    await combo.fill('pix');
    await expect.poll(options).toEqual(['PagePixels']);
    await page.keyboard.press('Enter');
    await page.waitForURL(app('/pixels'));
    await expect.poll(() => palette.count()).toBe(0);

    // By alias: the page list has no such name, so the link is the first choice once the server answers.
    await page.keyboard.press('Control+k');
    await combo.fill('spring-sale');
    await expect.poll(options).toEqual([`Linkspring-saleSpring sale 2026`]);
    expect(await combo.getAttribute('aria-activedescendant')).toBe(await palette.locator('[role=option]').getAttribute('id'));
    await page.keyboard.press('Enter');
    await page.waitForURL(app(`/links/${linkId}`));

    // By title, with the arrow keys past the pages that match the words too.
    await page.keyboard.press('Control+k');
    await combo.fill('deal');
    await expect.poll(options).toEqual(['Linkautumn-dealAutumn deal']);
    await combo.fill('a');
    await expect.poll(() => options().then((o) => o.filter((t) => t.startsWith('Link')).length)).toBe(2);
    await capture(page, 'nav-palette', axe);
    await page.keyboard.press('End');
    const last = (await options()).at(-1)!;
    expect(await palette.locator('[aria-selected=true]').textContent()).toBe(last);
    await page.keyboard.press('ArrowDown'); // wraps to the first
    expect(await palette.locator('[aria-selected=true]').textContent()).toBe((await options())[0]);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette.count()).toBe(0);

    // From the header's button, Escape gives focus back to it; Ctrl+K also works from inside a field.
    await page.click('.palette-open');
    await palette.waitFor();
    await page.keyboard.press('Tab');
    expect(await palette.evaluate((d) => d.matches(':focus-within'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => active('className')).toBe('palette-open');
    await page.goto(app('/links'));
    await page.focus('#search');
    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await combo.fill('Overview');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/?$/);
  }, 90_000);

  it('reads well in dark mode with the menus and the palette open', async () => {
    await page.goto(app('/links'));
    await captureDark(page, 'nav-dark-settings', axe, async (dark) => {
      await settle(dark);
      await dark.click(`${nav} .nav-group > button:text-is("Settings")`);
    });
    await captureDark(page, 'nav-dark-palette', axe, async (dark) => {
      await settle(dark);
      await dark.keyboard.press('Control+k');
      await dark.locator('dialog.palette [role=combobox]').fill('s');
      await dark.locator('dialog.palette [role=option]:has-text("spring-sale")').waitFor();
    });
    await captureDark(page, 'nav-dark-panel', axe, async (dark) => {
      await dark.setViewportSize({ width: 390, height: 800 });
      await settle(dark);
      await dark.click('.menu-toggle');
    });
    await captureDark(page, 'nav-dark-account', axe, async (dark) => {
      await settle(dark);
      await dark.click('.account-toggle');
    });
  }, 120_000);

  it('finds no serious axe violation and no console error on any of it', () => {
    for (const [name, violations] of Object.entries(axe)) expect(violations, name).toEqual([]);
    expect(Object.keys(axe).length).toBeGreaterThanOrEqual(18);
    expect(consoleErrors).toEqual([]);
  });
});
