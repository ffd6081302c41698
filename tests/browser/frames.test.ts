import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, chromiumPresent, screenshot, useBrowserRig } from '../helpers/browser.js';
import { createLink } from '../helpers/grouping-fixtures.js';

describe.skipIf(!chromiumPresent())('frame and overlay links in Chromium', () => {
  const rig = useBrowserRig();
  let overlayType: string;

  beforeAll(async () => {
    const overlay = await rig.server.call('POST', '/api/overlay/add', {
      key: rig.key,
      body: {
        type: 'message',
        name: 'Sale',
        message: 'Spring sale: 20% off everything.',
        button_text: 'Shop now',
        button_link: 'https://shop.example/sale',
      },
    });
    expect(overlay.status, overlay.text).toBe(200);
    overlayType = `overlay-${overlay.body.id}`;
  });

  async function open(url: string, width = 1280, bypassCSP = false): Promise<Page> {
    const page = await rig.newPage(width, bypassCSP);
    await page.goto(url);
    return page;
  }

  const framed = (page: Page) => page.frameLocator('iframe.full').locator('#where');

  for (const [kind, path] of [
    ['frame', '/deny-xfo/a'],
    ['frame', '/deny-csp/b'],
    ['overlay', '/deny-xfo/c'],
    ['overlay', '/deny-csp/d'],
  ]) {
    it(`${kind === 'frame' ? 'a frame' : 'an overlay'} link whose destination refuses framing (${path.split('/')[1]}) reaches it in one click`, async () => {
      const link = await createLink(rig.server, rig.key, { url: `${rig.site.url}${path}`, type: kind === 'frame' ? 'frame' : overlayType });
      const page = await open(link.shortUrl);
      await page.waitForLoadState('load');
      expect(await framed(page).count()).toBe(0); // the destination refused: the frame stays empty
      await screenshot(page, `refused-${kind}-${path.split('/')[1]}`);

      await page.getByRole('link', { name: 'Open the page' }).click();
      await page.waitForURL(`${rig.site.url}${path}`);
      expect(await page.textContent('#where')).toBe(`Destination ${path}`);
      await page.context().close();
    });
  }

  it('shows the framed destination with the link out at desktop and phone widths', async () => {
    const frame = await createLink(rig.server, rig.key, { url: `${rig.site.url}/framed`, type: 'frame' });
    const overlay = await createLink(rig.server, rig.key, { url: `${rig.site.url}/under-overlay`, type: overlayType });
    for (const width of [1280, 390]) {
      for (const [name, link, path] of [
        ['frame', frame, '/framed'],
        ['overlay', overlay, '/under-overlay'],
      ] as const) {
        const page = await open(link.shortUrl, width);
        await expect.poll(() => framed(page).textContent()).toBe(`Destination ${path}`);
        const out = page.getByRole('link', { name: 'Open the page' });
        expect(await out.isVisible()).toBe(true);
        expect(await out.getAttribute('target')).toBe('_top');
        await screenshot(page, `${name}-page`);
        await page.context().close();
        const checked = await open(link.shortUrl, width, true); // axe is injected: the page's CSP is bypassed for it alone
        expect(await accessibilityViolations(checked), name).toEqual([]);
        await checked.context().close();
      }
    }
  }, 60_000); // several pages in a row, on shared cores

  it("shows a contact overlay's form and mailto link, and the page lets the form go to the mail client", async () => {
    const contact = await rig.server.call('POST', '/api/overlay/add', {
      key: rig.key,
      body: { type: 'contact', name: 'Write', message: 'Questions? Write to us.', button_text: 'Write', email: 'team@example.com' },
    });
    const link = await createLink(rig.server, rig.key, { url: `${rig.site.url}/contact-under`, type: `overlay-${contact.body.id}` });
    for (const width of [1280, 390]) {
      const page = await open(link.shortUrl, width);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|violates/i.test(message.text())) refused.push(message.text());
      });
      await page.getByLabel('Subject').fill('Hello');
      await page.getByLabel('Message').fill('A question');
      expect(await page.getByRole('link', { name: 'team@example.com' }).getAttribute('href')).toBe('mailto:team@example.com');
      await screenshot(page, 'contact-overlay');
      await page.getByRole('button', { name: 'Write' }).click();
      await page.waitForTimeout(300);
      expect(refused).toEqual([]); // form-action lets the submission go to mailto:
      await page.context().close();
    }
  }, 60_000);
});
