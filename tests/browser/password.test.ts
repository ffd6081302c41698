import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, chromiumPresent, screenshot, useBrowserRig } from '../helpers/browser.js';
import { createLink } from '../helpers/grouping-fixtures.js';

const PASSWORD = 'correct horse';

describe.skipIf(!chromiumPresent())('password-protected links in Chromium', () => {
  const rig = useBrowserRig();

  async function submit(page: Page, password: string): Promise<void> {
    await page.fill('#password', password);
    await page.click('button[type=submit]');
  }

  it('shows the error after a wrong password, and takes the visitor to the destination after the right one', async () => {
    const link = await createLink(rig.server, rig.key, { url: `${rig.site.url}/secret?a=1`, password: PASSWORD });
    for (const width of [1280, 390]) {
      const page = await rig.newPage(width);
      await page.goto(link.shortUrl);
      await screenshot(page, 'password-form');
      await submit(page, 'not the password');
      await expect.poll(() => page.locator('[role=alert]').textContent()).toContain('That password is not right');
      expect(await page.locator('#password').count()).toBe(1);
      expect(page.url()).toBe(link.shortUrl);
      await screenshot(page, 'password-wrong');

      await submit(page, PASSWORD);
      await page.waitForURL(`${rig.site.url}/secret?a=1`);
      expect(await page.textContent('#where')).toBe('Destination /secret');
      await page.context().close();
    }
  }, 60_000); // several pages in a row, on shared cores

  it('shows a form and an error that axe finds no WCAG A/AA violation in', async () => {
    const link = await createLink(rig.server, rig.key, { url: `${rig.site.url}/checked`, password: PASSWORD });
    const page = await rig.newPage(390, true); // axe is injected: this check alone runs with the page's CSP bypassed
    await page.goto(link.shortUrl);
    expect(await accessibilityViolations(page)).toEqual([]);
    await submit(page, 'not the password');
    await page.locator('[role=alert]').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('takes the visitor on when the password was removed while the form was open', async () => {
    const link = await createLink(rig.server, rig.key, { url: `${rig.site.url}/opened`, password: PASSWORD });
    const page = await rig.newPage();
    await page.goto(link.shortUrl);
    const update = await rig.server.call('PUT', `/api/url/${link.id}/update`, {
      key: rig.key,
      body: { url: `${rig.site.url}/opened`, password: '' },
    });
    expect(update.status, update.text).toBe(200);
    await submit(page, 'anything');
    await page.waitForURL(`${rig.site.url}/opened`);
    await page.context().close();
  });

  it('opens a protected link reached through a campaign rotator', async () => {
    const { server, key } = rig;
    const link = await createLink(server, key, { url: `${rig.site.url}/rotated`, password: PASSWORD });
    const campaign = await server.call('POST', '/api/campaign/add', { key, body: { name: 'Browser rotator', slug: 'browser-rotator' } });
    expect(campaign.status, campaign.text).toBe(200);
    const assigned = await server.call('POST', `/api/campaign/${campaign.body.id}/assign/${link.id}`, {
      key,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(assigned.status, assigned.text).toBe(200);

    const page = await rig.newPage();
    await page.goto(campaign.body.rotator);
    expect(page.url()).toBe(link.shortUrl);
    await submit(page, PASSWORD);
    await page.waitForURL(`${rig.site.url}/rotated`);
    expect(await page.textContent('#where')).toBe('Destination /rotated');
    await page.context().close();
  });
});
