import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, watchConsole, useSessionCookie } from '../helpers/dashboard.js';
import { signedInUser } from '../helpers/session.js';

/**
 * Tags in Chromium: the links list shows each link's tags as chips, a chip filters the list (kept in the address
 * across a reload, removable), the edit form adds a tag through the autocomplete by keyboard, and the tags page
 * renames one. Every page is captured at 1280 and 390 px and checked with axe; the console must stay free of errors.
 */
describe.skipIf(!chromiumPresent())('tags in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let key: string;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const ids: Record<string, number> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await rig.server.call(method, path, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const rows = () => page.locator('table.links tbody tr td:nth-child(2) a.strong').allTextContents();
  const aliases = async () => (await rows()).map((text) => text.split('/').pop());

  beforeAll(async () => {
    await ensureWebBuilt();
    // Signed in through the API and handed to the browser as its cookie: the sign-in page has its own tests.
    const owner = await signedInUser(rig.server, new URL(rig.server.url).host);
    key = owner.apiKey;
    const links: Array<[string, string[]]> = [
      ['tag-red', ['red', 'sale']],
      ['tag-both', ['red', 'blue']],
      ['tag-blue', ['blue']],
      ['tag-none', []],
    ];
    for (const [custom, tags] of links) ids[custom] = (await call('POST', '/api/url/add', { url: `${rig.site.url}/${custom}`, custom, tags })).id;
    page = await rig.newPage();
    await useSessionCookie(page, rig.server.url, owner.cookie);
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard

  it('shows tags as chips; a chip filters the list, kept in the address across a reload and removable', async () => {
    await page.goto(app('/links'));
    await eventually(aliases).toEqual(['tag-none', 'tag-blue', 'tag-both', 'tag-red']);
    const chips = page.locator('table.links tbody tr', { hasText: 'tag-both' }).locator('.tag-chip');
    expect(await chips.allTextContents()).toEqual(['blue', 'red']);
    await capture(page, 'tags-list', axe);
    await captureDark(page, 'tags-list-dark', axe, (dark) => dark.locator('.tag-chip').first().waitFor());

    await chips.filter({ hasText: 'red' }).click();
    await page.waitForURL((url) => url.searchParams.getAll('tag').join() === 'red');
    await eventually(aliases).toEqual(['tag-both', 'tag-red']);
    await page.locator('table.links tbody tr', { hasText: 'tag-both' }).locator('.tag-chip', { hasText: 'blue' }).click();
    await page.waitForURL((url) => url.searchParams.getAll('tag').join() === 'red,blue');
    await eventually(aliases).toEqual(['tag-both']);

    await page.reload();
    await eventually(aliases).toEqual(['tag-both']);
    expect(await page.locator('[aria-label="Tag filters"] button').allTextContents()).toEqual(['Tag: red ×', 'Tag: blue ×']);
    await capture(page, 'tags-filtered', axe);
    await page.click('[aria-label="Remove tag filter red"]');
    await page.waitForURL((url) => url.searchParams.getAll('tag').join() === 'blue');
    await eventually(aliases).toEqual(['tag-blue', 'tag-both']);
  }, 90_000);

  it('adds a tag in the edit form through the autocomplete, by keyboard, and saves it', async () => {
    await page.goto(app(`/links/${ids['tag-none']}/edit`));
    const input = page.locator('#tags');
    await input.waitFor();
    expect(await input.getAttribute('role')).toBe('combobox');
    await input.click();
    await input.pressSequentially('bl');
    const options = page.locator('[role=listbox] [role=option]');
    await eventually(() => options.allTextContents()).toEqual(['blue 2']);
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
    await capture(page, 'tags-autocomplete', axe);
    await input.press('Enter');
    await input.pressSequentially('Fresh,');
    await input.pressSequentially('oops');
    await input.press('Enter');
    await input.press('Backspace'); // empty box: removes the last chip, "oops"
    expect(await page.locator('.tags-input .tag-chip').allTextContents()).toEqual(['blue×', 'fresh×']);
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === `/app/links/${ids['tag-none']}`);
    expect((await call('GET', `/api/url/${ids['tag-none']}`)).details.tags).toEqual(['blue', 'fresh']);
  }, 60_000);

  it('renames a tag across links on the tags page, merges one onto another and deletes one', async () => {
    await page.goto(app('/tags'));
    const names = () => page.locator('.tag-list > li .tag-name').allTextContents();
    await eventually(names).toEqual(['blue', 'fresh', 'red', 'sale']);
    await capture(page, 'tags-page', axe);
    await page.click('[aria-label="Rename red"]');
    await page.getByLabel('New name for red').fill('Crimson');
    await capture(page, 'tags-rename', axe);
    await page.click('button:text("Save")');
    await eventually(names).toEqual(['blue', 'crimson', 'fresh', 'sale']);
    expect((await call('GET', '/api/tags')).data.tags).toContainEqual({ name: 'crimson', count: 2 });

    await page.click('[aria-label="Rename fresh"]');
    await page.getByLabel('New name for fresh').fill('blue');
    await page.click('button:text("Merge")');
    await eventually(names).toEqual(['blue', 'crimson', 'sale']);
    expect((await call('GET', '/api/tags')).data.tags).toEqual([
      { name: 'blue', count: 3 },
      { name: 'crimson', count: 2 },
      { name: 'sale', count: 1 },
    ]);
    await page.click('[aria-label="Delete sale"]');
    await page.click('button:text("Remove sale from 1 link")');
    await eventually(names).toEqual(['blue', 'crimson']);
    await page.click('a[aria-label="Links tagged crimson"]');
    await page.waitForURL((url) => url.pathname === '/app/links' && url.searchParams.get('tag') === 'crimson');
    await eventually(aliases).toEqual(['tag-both', 'tag-red']);
  }, 60_000);

  it('found no serious or critical accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe)).toHaveLength(12);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
