import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, chromiumPresent, launchChromium, screenshot, startBrowserServer, startSite, type Site } from '../helpers/browser.js';
import { createLink } from '../helpers/grouping-fixtures.js';
import type { TestServer } from '../helpers/server.js';

describe.skipIf(!chromiumPresent())('frame and overlay links in Chromium', () => {
  let server: TestServer;
  let site: Site;
  let browser: Browser;
  let key: string;
  let overlayType: string;

  beforeAll(async () => {
    [server, site, browser] = await Promise.all([startBrowserServer({ RATE_LIMIT_MAX: '100000' }), startSite(), launchChromium()]);
    key = (await server.user()).apiKey;
    const overlay = await server.call('POST', '/api/overlay/add', {
      key, body: { type: 'message', name: 'Sale', message: 'Spring sale: 20% off everything.', button_text: 'Shop now', button_link: 'https://shop.example/sale' },
    });
    expect(overlay.status, overlay.text).toBe(200);
    overlayType = `overlay-${overlay.body.id}`;
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.close(), site?.close()]);
  });

  async function open(url: string, width = 1280, bypassCSP = false): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height: 800 }, bypassCSP })).newPage();
    page.setDefaultTimeout(5000);
    await page.goto(url);
    return page;
  }

  const framed = (page: Page) => page.frameLocator('iframe.full').locator('#where');

  for (const [kind, path] of [['frame', '/deny-xfo/a'], ['frame', '/deny-csp/b'], ['overlay', '/deny-xfo/c'], ['overlay', '/deny-csp/d']]) {
    it(`${kind === 'frame' ? 'a frame' : 'an overlay'} link whose destination refuses framing (${path.split('/')[1]}) reaches it in one click`, async () => {
      const link = await createLink(server, key, { url: `${site.url}${path}`, type: kind === 'frame' ? 'frame' : overlayType });
      const page = await open(link.shortUrl);
      await page.waitForLoadState('load');
      expect(await framed(page).count()).toBe(0); // the destination refused: the frame stays empty
      await screenshot(page, `refused-${kind}-${path.split('/')[1]}`);

      await page.getByRole('link', { name: 'Open the page' }).click();
      await page.waitForURL(`${site.url}${path}`);
      expect(await page.textContent('#where')).toBe(`Destination ${path}`);
      await page.context().close();
    });
  }

  it('shows the framed destination with the link out at desktop and phone widths', async () => {
    const frame = await createLink(server, key, { url: `${site.url}/framed`, type: 'frame' });
    const overlay = await createLink(server, key, { url: `${site.url}/under-overlay`, type: overlayType });
    for (const width of [1280, 390]) {
      for (const [name, link, path] of [['frame', frame, '/framed'], ['overlay', overlay, '/under-overlay']] as const) {
        const page = await open(link.shortUrl, width);
        await expect.poll(() => framed(page).textContent()).toBe(`Destination ${path}`);
        const open_ = page.getByRole('link', { name: 'Open the page' });
        expect(await open_.isVisible()).toBe(true);
        expect(await open_.getAttribute('target')).toBe('_top');
        await screenshot(page, `${name}-page`);
        await page.context().close();
        const checked = await open(link.shortUrl, width, true); // axe is injected: the page's CSP is bypassed for it alone
        expect(await accessibilityViolations(checked), name).toEqual([]);
        await checked.context().close();
      }
    }
  });
});
