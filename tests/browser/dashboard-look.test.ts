import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, settle, watchConsole } from '../helpers/dashboard.js';
import { PASSWORD } from '../helpers/session.js';

/**
 * The dashboard's look in Chromium: sparklines in the links list (one request for the page), "select all N
 * matching" applying a bulk action to links on several pages in one request, empty states with their next step on
 * every list of a fresh account, a skeleton while a list loads, and the table header staying in view. Each list
 * page is captured at 1280 and 390 px, light and dark, with axe; the console must stay free of errors.
 */
describe.skipIf(!chromiumPresent())('dashboard look in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let consoleErrors: string[];
  let apiKey: string;
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  const rows = () => page.locator('table.links tbody tr').count();
  const api = async (method: string, path: string, body?: unknown, key = apiKey) => {
    const res = await rig.server.call(method, path, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  /** Requests of the page to an API path, counted from now. */
  const countRequests = (p: Page, path: string) => {
    const seen: string[] = [];
    p.on('request', (req) => {
      if (new URL(req.url()).pathname === `/api${path}`) seen.push(req.url());
    });
    return seen;
  };
  const signIn = async (p: Page, email: string, path: string) => {
    await p.goto(app(path));
    await p.waitForURL(/\/app\/signin/);
    await p.fill('#email', email);
    await p.fill('#password', PASSWORD);
    await p.click('button[type=submit]');
    await p.waitForURL(app(path));
  };
  let clicked = '';
  let campaign = 0;

  beforeAll(async () => {
    await ensureWebBuilt();
    const owner = await rig.server.user();
    apiKey = owner.apiKey;
    await setPassword(rig.server.ctx, owner.email, PASSWORD);
    campaign = (await api('POST', '/api/campaign/add', { name: 'Spring' })).id;
    const urls = Array.from({ length: 27 }, (_, i) => ({ url: `${rig.site.url}/promo/${i}`, custom: `promo-${i}` }));
    await api('POST', '/api/urls/bulk', { urls: [...urls, { url: `${rig.site.url}/about`, custom: 'about-us' }] });
    const hot = await api('POST', '/api/url/add', { url: `${rig.site.url}/hot`, custom: 'hot-link' });
    clicked = hot.shorturl;
    for (let i = 0; i < 3; i++) expect((await rig.server.visit(new URL(clicked).pathname)).status).toBeLessThan(400);
    await rig.server.ctx.clicks.flush();

    page = await rig.newPage();
    await signIn(page, owner.email, '/links');
    consoleErrors = watchConsole(page);
  }, 180_000);

  it('draws each row a 7-day sparkline from ONE request for the page', async () => {
    const sparkRequests = countRequests(page, '/urls/sparklines');
    const perLink = countRequests(page, `/url/${new URL(clicked).pathname.slice(1)}/clicks`);
    await page.reload();
    await eventually(rows).toBe(20);
    await eventually(() => page.locator('table.links svg.spark').count()).toBe(20);
    expect(sparkRequests).toHaveLength(1);
    expect(new URL(sparkRequests[0]!).searchParams.get('ids')!.split(',')).toHaveLength(20);
    expect(perLink).toHaveLength(0);
    const hot = page.locator('tr', { has: page.locator('text=hot-link') });
    expect(await hot.locator('svg.spark').getAttribute('aria-label')).toBe('3 clicks in the last 7 days');
    expect(
      await page
        .locator('tr', { has: page.locator('text=about-us') })
        .locator('svg.spark')
        .getAttribute('aria-label'),
    ).toBe('0 clicks in the last 7 days');
    await capture(page, 'look-links', axe);
    await captureDark(page, 'look-links-dark', axe, (dark) => eventually(() => dark.locator('svg.spark').count()).toBe(20));
  }, 90_000);

  it('keeps the table header in view while the rows scroll under it', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    const wrap = page.locator('.table-wrap').first();
    await wrap.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const [wrapBox, headBox, firstRow] = await Promise.all([
      wrap.boundingBox(),
      page.locator('table.links thead th').nth(1).boundingBox(),
      page.locator('table.links tbody tr').first().boundingBox(),
    ]);
    expect(await wrap.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
    // The header sits at the top of the scrolled box; the first row has gone up under it.
    expect(Math.abs(headBox!.y - wrapBox!.y)).toBeLessThanOrEqual(2);
    expect(firstRow!.y).toBeLessThan(headBox!.y);
    const [x, y] = [headBox!.x + headBox!.width / 2, headBox!.y + headBox!.height / 2];
    const onTop = await page.evaluate<string>(`document.elementFromPoint(${x}, ${y})?.closest('th')?.textContent ?? ''`);
    expect(onTop).toBe('Short link');
    await wrap.evaluate((el) => el.scrollTo(0, 0));
    await page.evaluate('window.scrollTo(0, 0)');
  });

  it('applies a bulk action to every link matching the search, across pages, in one request', async () => {
    await page.fill('#search', 'promo');
    await eventually(() => page.textContent('main')).toContain('27 links matching “promo”');
    await eventually(rows).toBe(20);
    await page.check('[aria-label="Select all links on this page"]');
    await eventually(() => page.textContent('.select-matching')).toContain('All 20 links on this page are selected.');
    await page.click('button:text("Select all 27 matching links")');
    await eventually(() => page.textContent('#bulk-h')).toBe('All 27 matching links selected');
    await page.selectOption('#bulk-campaign', String(campaign));
    await capture(page, 'look-links-matching', axe);
    const applied = countRequests(page, '/urls/bulk/apply');
    const assigns: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/assign/')) assigns.push(req.url());
    });
    await page.click('button:text("Add to campaign")');
    await eventually(() => page.textContent('.bulk-outcome')).toContain('Added to campaign Spring: 27 links.');
    expect(applied).toHaveLength(1);
    expect(assigns).toEqual([]);
    const inCampaign = (await api('GET', `/api/urls?limit=100&campaign=${campaign}`)).data;
    expect(inCampaign.result).toBe(27);
    expect(inCampaign.urls.every((u: { alias: string }) => u.alias.startsWith('promo-'))).toBe(true);
    await page.fill('#search', '');
    await eventually(() => page.textContent('main')).toContain('29 links');
  }, 60_000);

  it('shows a skeleton, announced as loading, while the list is on its way', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/urls\?/, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(app('/links?order=click'));
      const skeleton = page.locator('[role=status].skeleton');
      await eventually(() => skeleton.count()).toBe(1);
      expect(await skeleton.getAttribute('aria-label')).toMatch(/^Loading/);
      expect(await skeleton.locator('.skeleton-line').count()).toBeGreaterThan(0);
      await page.screenshot({ path: 'screenshots/dashboard-look-skeleton.png' });
    } finally {
      release();
      await page.unroute(/\/api\/urls\?/);
    }
    await eventually(rows).toBe(20);
    expect(await page.locator('[role=status].skeleton').count()).toBe(0);
  });

  describe('a fresh account', () => {
    let newcomer: Page;
    let errors: string[];
    beforeAll(async () => {
      const fresh = await rig.server.user();
      await setPassword(rig.server.ctx, fresh.email, PASSWORD);
      newcomer = await rig.newPage();
      errors = watchConsole(newcomer);
      await signIn(newcomer, fresh.email, '/links');
    }, 60_000);
    afterAll(() => newcomer.context().close());

    const lists: Array<[string, string, string, string]> = [
      ['/links', 'No links yet', 'Create a link', '/app/links/new'],
      ['/qr', 'No QR codes yet', 'Create a QR code', '/app/qr/new'],
      ['/bio', 'No bio pages yet', 'New bio page', '/app/bio/new'],
      ['/splash', 'No splash pages yet', 'New splash page', '/app/splash/new'],
      ['/overlays', 'No overlays yet', 'New overlay', '/app/overlays/new'],
      ['/campaigns', 'No campaigns yet', 'Add a campaign', '#new-name'],
      ['/channels', 'No channels yet', 'Add a channel', '#new-name'],
      ['/domains', 'No domains yet', 'Add a domain', '#new-domain'],
      ['/pixels', 'No pixels yet', 'Add a pixel', '#new-type'],
    ];
    for (const [path, title, cta, href] of lists) {
      it(`says what to do next on the empty ${path} list`, async () => {
        await newcomer.goto(app(path));
        await settle(newcomer);
        const empty = newcomer.locator('.empty-state');
        await eventually(() => empty.locator('.empty-title').textContent()).toBe(title);
        const action = empty.locator('a.button', { hasText: cta });
        expect(await action.getAttribute('href'), path).toBe(href);
        const name = `look-empty${path.replace('/', '-')}`;
        await capture(newcomer, name, axe);
        await captureDark(newcomer, `${name}-dark`, axe, (dark) => dark.locator('.empty-state').waitFor());
      }, 120_000);
    }

    it("takes the keyboard to a form list's first field, and a page list to its new page", async () => {
      await newcomer.goto(app('/domains'));
      await newcomer.click('.empty-state a.button');
      expect(await newcomer.evaluate<string>('document.activeElement.id')).toBe('new-domain');
      await newcomer.goto(app('/links'));
      await newcomer.click('.empty-state a.button');
      await newcomer.waitForURL(app('/links/new'));
      expect(errors).toEqual([]);
    }, 60_000);
  });

  it('has no serious accessibility violations and a clean console', () => {
    for (const [name, violations] of Object.entries(axe)) expect(violations, name).toEqual([]);
    expect(Object.keys(axe).length).toBeGreaterThan(40);
    expect(consoleErrors).toEqual([]);
  });
});
