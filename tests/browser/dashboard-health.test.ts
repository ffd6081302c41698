import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, watchConsole, useSessionCookie } from '../helpers/dashboard.js';
import { signedInUser } from '../helpers/session.js';

/**
 * Link health in Chromium: the links list shows each checked link's health as a badge, the health filter keeps
 * the broken ones (in the address), and the overview lists the broken links with a way to all of them. The
 * destinations are local (OUTBOUND_ALLOW_LOOPBACK): the destination site answers 200, an unknown alias of the
 * server itself 404.
 */
describe.skipIf(!chromiumPresent())('link health in Chromium', () => {
  const rig = useBrowserRig({ OUTBOUND_ALLOW_LOOPBACK: 'true' });
  let page: Page;
  let key: string;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await rig.server.call(method, path, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const aliases = async () =>
    (await page.locator('table.links tbody tr td:nth-child(2) a.strong').allTextContents()).map((text) => text.split('/').pop());
  const isOpenHealth = async () => (await page.locator('details.fold', { hasText: 'Health' }).getAttribute('open')) !== null;
  const badge = (alias: string) => page.locator('table.links tbody tr', { hasText: alias }).locator('.health-badge');

  beforeAll(async () => {
    await ensureWebBuilt();
    const owner = await signedInUser(rig.server, new URL(rig.server.url).host);
    key = owner.apiKey;
    const fine = (await call('POST', '/api/url/add', { url: `${rig.site.url}/fine`, custom: 'health-fine' })).id;
    const dead = (await call('POST', '/api/url/add', { url: `${rig.server.url}/no-such-alias`, custom: 'health-dead' })).id;
    await call('POST', '/api/url/add', { url: `${rig.site.url}/new`, custom: 'health-new' });
    expect((await call('POST', `/api/url/${fine}/check`)).health.status).toBe('ok');
    expect((await call('POST', `/api/url/${dead}/check`)).health).toMatchObject({ status: 'broken', code: 404 });
    page = await rig.newPage();
    await useSessionCookie(page, rig.server.url, owner.cookie);
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard

  it('shows a badge per checked link and filters the broken ones, kept in the address', async () => {
    await page.goto(app('/links'));
    await eventually(aliases).toEqual(['health-new', 'health-dead', 'health-fine']);
    expect(await badge('health-dead').textContent()).toBe('Broken (404)');
    expect(await badge('health-fine').textContent()).toBe('Working');
    expect(await badge('health-new').count()).toBe(0);
    // At phone width the destination column is hidden; the badge stays beside the alias.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await badge('health-dead').isVisible()).toBe(true);
    expect(await badge('health-fine').isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await capture(page, 'health-list', axe);
    await captureDark(page, 'health-list-dark', axe, (dark) => dark.locator('.health-badge').first().waitFor());
    await page.selectOption('#filter-health', 'broken');
    await page.waitForURL((url) => url.searchParams.get('health') === 'broken');
    await eventually(aliases).toEqual(['health-dead']);
    await page.reload();
    await eventually(aliases).toEqual(['health-dead']);
    await page.click('button:text("Clear filters")');
    await eventually(aliases).toEqual(['health-new', 'health-dead', 'health-fine']);
  }, 60_000);

  it('lists the broken links on the overview, with the way to all of them', async () => {
    await page.goto(app());
    const panel = page.locator('section', { has: page.locator('#broken-h') });
    await eventually(() => panel.locator('li a').allTextContents()).toEqual(['127.0.0.1:' + new URL(rig.server.url).port + '/health-dead']);
    await capture(page, 'health-overview', axe);
    await panel.locator('a', { hasText: 'Show all 1 broken link' }).click();
    await page.waitForURL((url) => url.pathname === '/app/links' && url.searchParams.get('health') === 'broken');
    await eventually(aliases).toEqual(['health-dead']);
  }, 60_000);

  it("shows the link's health on its page, and checks it again on demand", async () => {
    const dead = (await call('GET', '/api/urls?health=broken')).data.urls[0].id as number;
    await page.goto(app(`/links/${dead}`));
    const health = page.locator('.summary dt:text-is("Health") + dd');
    await eventually(() => health.locator('.health-badge').textContent()).toBe('Broken (404)');
    await capture(page, 'health-link', axe);
    const checked = page.waitForResponse((res) => res.url().endsWith(`/api/url/${dead}/check`) && res.request().method() === 'POST');
    await health.locator('button', { hasText: 'Check now' }).click();
    expect(await (await checked).json()).toMatchObject({ error: 0, health: { status: 'broken', code: 404 } });
    await eventually(() => health.locator('button').textContent()).toBe('Check now');
  }, 60_000);

  it("edits a link's checks and fallback address in the form's Health section", async () => {
    const id = (await call('GET', '/api/urls?health=ok')).data.urls[0].id as number;
    await page.goto(app(`/links/${id}/edit`));
    await page.locator('#url').waitFor();
    expect(await page.isVisible('#fallbackurl')).toBe(false);
    await page.click('summary:has-text("Health")');
    await page.fill('#fallbackurl', 'example.com/sorry');
    await page.getByLabel('Check that the destination still answers').uncheck();
    expect(await page.textContent('details:has(#fallbackurl) .fold-state')).toBe('Checks off, Fallback example.com/sorry');
    await capture(page, 'health-form', axe);
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === `/app/links/${id}`);
    expect((await call('GET', `/api/url/${id}`)).details).toMatchObject({ healthcheck: false, fallbackurl: 'https://example.com/sorry' });
    await page.goto(app(`/links/${id}/edit`));
    await page.locator('#fallbackurl').waitFor({ state: 'attached' });
    expect(await isOpenHealth()).toBe(true); // a section that holds a value opens on edit
    expect(await page.inputValue('#fallbackurl')).toBe('https://example.com/sorry');
  }, 60_000);

  it('found no serious or critical accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe).length).toBeGreaterThanOrEqual(6);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
