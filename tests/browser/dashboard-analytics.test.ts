import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, settle, watchConsole } from '../helpers/dashboard.js';
import { PASSWORD } from '../helpers/session.js';
import { UA } from '../helpers/user-agents.js';

const LONG_REFERRER = 'https://a-rather-long-referrer-subdomain-for-the-spring-newsletter.campaign-landing-pages.example.org/x';

/**
 * Analytics in the dashboard: the period lives in the address (reload and Back keep it), a link's device-type and
 * language cards count its real clicks, no card is wider than itself at 1280 or 390 px, and the figures refresh
 * every 30 s without a reload (the page's clock is driven, not waited for).
 */
describe.skipIf(!chromiumPresent())('analytics in the dashboard', () => {
  beforeAll(ensureWebBuilt, 180_000); // before the rig's server: a first build of the dashboard
  const rig = useBrowserRig();
  const axe: Record<string, string[]> = {};
  let page: Page;
  let consoleErrors: string[];
  let apiKey = '';
  let linkId = 0;
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const period = () => page.getByLabel('Period', { exact: true });
  const periodLabel = () => period().locator('option:checked').textContent();
  const search = () => new URL(page.url()).search;
  // Generous: the suite shares two cores with other work.
  const poll = <T>(read: () => T | Promise<T>, message?: string) => expect.poll(read, { timeout: 15_000, message });

  /** A click through the real redirect, as a browser with this user agent and Accept-Language sends it. */
  async function click(userAgent: string, language: string, referer = '') {
    const headers: Record<string, string> = { 'user-agent': userAgent, 'accept-language': language };
    if (referer) headers.referer = referer;
    const res = await rig.server.visit('/spring-sale', { headers });
    expect(res.status).toBe(302);
  }

  /** A card's rows as label (the API's own key) → count, read from the page. */
  const card = (id: string) =>
    page.locator(`section[aria-labelledby=${id}] tbody tr`).evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((row) => {
          const title = row.querySelector('.label')!.getAttribute('title')!;
          return [/\(([^)]+)\)$/.exec(title)?.[1] ?? title, Number(row.querySelector('.num')!.textContent!.replace(/\D/g, ''))];
        }),
      ),
    );

  beforeAll(async () => {
    const user = await rig.server.user();
    apiKey = user.apiKey;
    await setPassword(rig.server.ctx, user.email, PASSWORD);
    const made = await rig.server.call('POST', '/api/url/add', {
      key: apiKey,
      body: { url: `${rig.site.url}/spring`, custom: 'spring-sale', title: 'Spring sale' },
    });
    expect(made.status, made.text).toBe(200);
    linkId = made.body.id;
    await click(UA.iphone, 'fr-CH,fr;q=0.9,en;q=0.8', LONG_REFERRER);
    await click(UA.android, 'fr-FR');
    await click(UA.windowsChrome, 'de-DE,de;q=0.9');
    await click(UA.ipad, 'en-GB;q=0.4,pt-BR');
    await click(UA.macSafari, '');
    await rig.server.ctx.clicks.flush();

    page = await rig.newPage();
    page.setDefaultTimeout(15_000); // the suite shares two cores
    consoleErrors = watchConsole(page);
    // A clock the test can move: time flows as usual until it is fast-forwarded.
    await page.clock.install();
    await page.goto(app('/signin'));
    await page.fill('#email', user.email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
  });

  it('keeps the period in the address: reload keeps it, Back restores the one before', async () => {
    await page.goto(app(`/links/${linkId}`));
    await settle(page);
    expect(search()).toBe('');
    expect(await periodLabel()).toBe('Last 30 days');

    await period().selectOption({ label: 'Last 7 days' });
    await poll(search).toBe('?range=7d');
    await page.reload();
    await settle(page);
    expect(await periodLabel()).toBe('Last 7 days');

    await period().selectOption({ label: 'Last 24 hours' });
    await poll(search).toBe('?range=24h');
    expect(await page.getByLabel('Interval', { exact: true }).inputValue()).toBe('hour');
    await page.goBack();
    await poll(search).toBe('?range=7d');
    await poll(periodLabel).toBe('Last 7 days');

    // Own dates and interval are the address's from, to and interval: a shared address shows the same chart.
    await page.getByLabel('Interval', { exact: true }).selectOption('week');
    await poll(() => new URLSearchParams(search()).get('interval')).toBe('week');
    const own = new URLSearchParams(search());
    expect(own.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await periodLabel()).toBe('Own dates');
    const shared = await rig.newPage();
    await shared.context().addCookies(await page.context().cookies());
    await shared.goto(page.url());
    await poll(() => shared.getByLabel('From', { exact: true }).inputValue()).toBe(own.get('from'));
    expect(await shared.getByLabel('To', { exact: true }).inputValue()).toBe(own.get('to'));
    expect(await shared.getByLabel('Interval', { exact: true }).inputValue()).toBe('week');
    await shared.context().close();

    // The overview reads the same params.
    await page.goto(app('/?range=90d'));
    await settle(page);
    expect(await periodLabel()).toBe('Last 90 days');
    await period().selectOption({ label: 'Last 12 months' });
    await poll(search).toBe('?range=12m');
    await page.goBack();
    await poll(periodLabel).toBe('Last 90 days');
  }, 120_000);

  it("counts the link's real clicks by device type and language", async () => {
    await page.goto(app(`/links/${linkId}`));
    await settle(page);
    await poll(() => card('device-types-h')).toEqual({ mobile: 2, desktop: 2, tablet: 1 });
    expect(await card('languages-h')).toEqual({ fr: 2, de: 1, pt: 1, Unknown: 1 });
    expect(await page.locator('section[aria-labelledby=languages-h] .label').first().textContent()).toBe('French');
  }, 60_000);

  it('fits every card at 1280 and 390 px: long labels end in an ellipsis, the full text in their title', async () => {
    for (const path of [`/links/${linkId}`, '/']) {
      await page.goto(app(path));
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await settle(page);
        // Polled: the chart takes its new width on the frame after the resize.
        const wider = () =>
          page
            .locator('.panel, .table-wrap')
            .evaluateAll((cards) =>
              cards
                .filter((c) => c.scrollWidth > c.clientWidth)
                .map((c) => `${c.className} ${c.getAttribute('aria-labelledby')}: ${c.scrollWidth} > ${c.clientWidth}`),
            );
        await poll(wider, `${path} at ${width} px`).toEqual([]);
        expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
    await page.goto(app(`/links/${linkId}`));
    await settle(page);
    const referrer = page.locator(`section[aria-labelledby=referrers-h] .label[title="${new URL(LONG_REFERRER).host}"]`);
    expect(await referrer.count()).toBe(1);
    expect(await referrer.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true); // cut, not overflowing
    const align = "getComputedStyle(document.querySelector('section[aria-labelledby=referrers-h] td.num')).textAlign";
    expect(await page.evaluate<string>(align)).toBe('right');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);

  it('refreshes the figures every 30 s while the page is open, without a reload', async () => {
    await page.goto(app(`/links/${linkId}`));
    await settle(page);
    expect(await page.getAttribute('[data-refresh-ms]', 'data-refresh-ms')).toBe('30000');
    await poll(() => card('device-types-h')).toEqual({ mobile: 2, desktop: 2, tablet: 1 });

    await click(UA.ipad, 'ja');
    await rig.server.ctx.clicks.flush();
    // Recorded, but the page has not asked again yet: nothing changes on its own before the interval.
    await page.waitForTimeout(1500);
    expect(await card('languages-h')).toEqual({ fr: 2, de: 1, pt: 1, Unknown: 1 });

    await page.clock.fastForward(30_000);
    await poll(() => card('languages-h')).toEqual({ fr: 2, de: 1, pt: 1, Unknown: 1, ja: 1 });
    expect(await card('device-types-h')).toEqual({ mobile: 2, desktop: 2, tablet: 2 });
    await poll(() => page.locator('[aria-labelledby=visits-h] table.visits tbody tr').count()).toBe(6);

    // The overview's latest visits too.
    await page.goto(app('/'));
    await settle(page);
    const latest = page.locator('[aria-labelledby=latest-h] table.visits tbody tr');
    await poll(() => latest.count()).toBe(6);
    await click(UA.iphone, 'es');
    await rig.server.ctx.clicks.flush();
    await page.clock.fastForward(30_000);
    await poll(() => latest.count()).toBe(7);
  }, 120_000);

  it('captures the overview and the link page at 1280 and 390 px (the link page dark too), axe and console clean', async () => {
    await page.goto(app(`/links/${linkId}`));
    await capture(page, 'analytics-link', axe);
    await captureDark(page, 'analytics-link-dark', axe, (dark) => settle(dark)); // contrast of the new cards in dark mode
    await page.goto(app('/?range=7d'));
    await capture(page, 'analytics-home', axe);
    for (const [name, violations] of Object.entries(axe)) expect(violations, name).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
