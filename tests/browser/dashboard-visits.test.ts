import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, watchConsole } from '../helpers/dashboard.js';
import { PASSWORD } from '../helpers/session.js';
import { UA } from '../helpers/user-agents.js';

/**
 * The visit log in the dashboard: a link's visit shows in the overview's latest visits and on the link's page,
 * a QR code's scan likewise, and a long log pages. Each page is captured at 1280 and 390 px and checked with axe.
 */
describe.skipIf(!chromiumPresent())('visits in the dashboard', () => {
  beforeAll(ensureWebBuilt, 180_000); // before the rig's server: a first build of the dashboard
  const rig = useBrowserRig();
  const axe: Record<string, string[]> = {};
  let page: Page;
  let consoleErrors: string[];
  let apiKey = '';
  let linkId = 0;
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const rows = (table: string) => page.locator(`${table} table.visits tbody tr`);
  const flushed = () => rig.server.ctx.clicks.flush();

  beforeAll(async () => {
    const user = await rig.server.user();
    apiKey = user.apiKey;
    await setPassword(rig.server.ctx, user.email, PASSWORD);
    page = await rig.newPage();
    page.setDefaultTimeout(15_000); // the suite shares two cores
    consoleErrors = watchConsole(page); // the sign-in page too: its session check answers 200 signed out
    await page.goto(app('/signin'));
    await page.fill('#email', user.email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
  });

  it('says so when there are no visits yet', async () => {
    await expect.poll(() => page.textContent('main')).toContain('No recent visits');
    await capture(page, 'visits-home-empty', axe);
  }, 60_000);

  it("shows a link's visit in the overview's latest visits and on the link's page", async () => {
    await page.click('text=New link');
    await page.fill('#url', `${rig.site.url}/landing`);
    await page.fill('#custom', 'seen-link');
    await page.fill('#title', 'Autumn sale');
    await page.click('button:text("Create link")');
    await page.click('text=Open the link’s page');
    await page.waitForURL(/\/app\/links\/\d+$/);
    linkId = Number(page.url().split('/').pop());
    await expect.poll(() => page.textContent('main')).toContain('No visits logged yet.');

    // Headless Chromium says so in its user agent, and bots are not counted: the visitor is a phone's browser.
    const visitor = await (await rig.browser.newContext({ userAgent: UA.iphone })).newPage();
    await visitor.goto(`${rig.server.url}/seen-link`);
    await visitor.waitForURL(`${rig.site.url}/landing`);
    await visitor.context().close();
    await flushed();

    await page.reload();
    await expect.poll(() => rows('').count()).toBe(1);
    expect(await rows('').first().textContent()).toMatch(/Mobile Safari.*iOS.*mobile/);
    await capture(page, 'visits-link', axe);

    await page.click('nav >> text=Overview');
    await expect.poll(() => rows('[aria-labelledby=latest-h]').count()).toBe(1);
    await capture(page, 'visits-home', axe);
    await page.click('[aria-labelledby=latest-h] >> text=Autumn sale');
    await page.waitForURL(app(`/links/${linkId}`));
  }, 90_000);

  it("shows a QR code's scan among the latest visits and on its page", async () => {
    const qr = await rig.server.call('POST', '/api/qr/add', {
      key: apiKey,
      body: { type: 'link', data: `${rig.site.url}/qr`, name: 'Window poster' },
    });
    expect(qr.status, qr.text).toBe(200);
    await rig.server.visit(`${new URL(qr.body.link).pathname}/scan`, { headers: { 'user-agent': UA.android } });
    await flushed();

    await page.goto(app()); // a new load: the overview's answer of a moment ago is still fresh in the app's cache
    await expect.poll(() => rows('[aria-labelledby=latest-h]').count()).toBe(2);
    expect(await rows('[aria-labelledby=latest-h]').first().textContent()).toContain('Window poster'); // newest first
    await page.click('[aria-labelledby=latest-h] >> text=Window poster');
    await page.waitForURL(app(`/qr/${qr.body.id}`));
    await expect.poll(() => page.textContent('#visits-h')).toBe('Recent scans');
    await expect.poll(() => rows('').count()).toBe(1);
    expect(await rows('').first().textContent()).toContain('Android');
    await capture(page, 'visits-qr', axe);
  }, 90_000);

  it("pages through a link's visits, 20 at a time", async () => {
    for (let i = 0; i < 20; i++) await rig.server.visit('/seen-link', { headers: { 'user-agent': UA.windowsChrome } });
    await flushed();
    await page.goto(app(`/links/${linkId}`));
    await expect.poll(() => rows('').count()).toBe(20);
    await expect.poll(() => page.textContent('.pagination')).toContain('Page 1 of 2');
    await page.click('.pagination >> text=Next');
    await expect.poll(() => page.textContent('.pagination')).toContain('Page 2 of 2');
    await expect.poll(() => rows('').count()).toBe(1);
    expect(await rows('').first().textContent()).toContain('Mobile Safari'); // the oldest, the phone's
    await capture(page, 'visits-link-page-2', axe);
  }, 90_000);

  it('keeps the chosen period, and shows the last 24 hours as 24 hourly buckets ending at this hour', async () => {
    const hourOf = (date: Date) => `${date.toISOString().slice(0, 13).replace('T', ' ')}:00:00`;
    const hours = [hourOf(new Date())];
    await page.goto(app(`/links/${linkId}`));
    const period = page.getByLabel('Period');
    const chosen = () => period.locator('option:checked').textContent();
    const chart = () => page.locator('.chart [role=img]').getAttribute('aria-label');
    await expect.poll(chosen).toBe('Last 30 days'); // the default range is that preset
    await expect.poll(chart).toMatch(/: 21 clicks, \d+ unique, in 30 buckets$/);

    await period.selectOption({ label: 'Last 24 hours' });
    await expect.poll(chart).toMatch(/: 21 clicks, \d+ unique, in 24 buckets$/);
    expect(await chosen()).toBe('Last 24 hours');
    expect(await page.getByLabel('Interval').inputValue()).toBe('hour');
    await page.click('.chart details summary');
    hours.push(hourOf(new Date()));
    // Every visit came this hour: the one row with clicks is the last bucket, the current hour.
    expect(hours).toContain(await page.locator('.chart details tbody tr td').first().textContent());
    await capture(page, 'visits-last-24-hours', axe);

    await page.getByLabel('Interval').selectOption('day');
    await expect.poll(chosen).toBe('Own dates');
    await page.click('nav >> text=Overview');
    await page.getByLabel('Period').selectOption({ label: 'Last 7 days' });
    await expect.poll(chart).toMatch(/in 7 buckets$/);
    expect(await chosen()).toBe('Last 7 days');
  }, 90_000);

  it('found no serious or critical accessibility violation and no console error', () => {
    expect(Object.keys(axe)).toHaveLength(12);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
