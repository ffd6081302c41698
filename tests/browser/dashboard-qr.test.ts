import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, watchConsole } from '../helpers/dashboard.js';
import { PASSWORD } from '../helpers/session.js';

/**
 * The QR code edit form in Chromium: a code made through the API opens with its type, content, colours and logo
 * filled in, and saving it unchanged leaves `GET /api/qr/{id}` identical. Captured at 1280 and 390 px with axe.
 */
describe.skipIf(!chromiumPresent())('QR code edit form in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let consoleErrors: string[];
  let apiKey: string;
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await rig.server.call(method, path, { key: apiKey, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    await ensureWebBuilt();
    const owner = await rig.server.user();
    apiKey = owner.apiKey;
    await setPassword(rig.server.ctx, owner.email, PASSWORD);
    page = await rig.newPage();
    await page.goto(app('/qr'));
    await page.waitForURL(/\/app\/signin\?next=%2Fqr$/);
    await page.fill('#email', owner.email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(app('/qr'));
    consoleErrors = watchConsole(page); // from here: dashboard.test.ts checks the sign-in page's own console
  }, 180_000); // a first build of the dashboard

  it('fills the form with a code content, colours and logo, and saving it unchanged changes nothing', async () => {
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#c00000' } })
      .png()
      .toBuffer();
    const { id } = await api('POST', '/api/qr/add', {
      type: 'wifi',
      name: 'Office Wi-Fi',
      data: { ssid: 'Office', password: 'p;ss', encryption: 'WPA', hidden: true },
      foreground: 'rgb(0,51,102)',
      background: 'rgb(255,250,240)',
      logo: `data:image/png;base64,${png.toString('base64')}`,
    });
    const before = await api('GET', `/api/qr/${id}`);
    await page.goto(app(`/qr/${id}/edit`));
    await expect.poll(() => page.inputValue('#qr-ssid')).toBe('Office');
    expect(await page.inputValue('#qr-type')).toBe('wifi');
    expect(await page.isDisabled('#qr-type')).toBe(true);
    expect(await page.inputValue('#qr-password')).toBe('p;ss');
    expect(await page.inputValue('#qr-name')).toBe('Office Wi-Fi');
    expect(await page.inputValue('#qr-fg')).toBe('#003366');
    expect(await page.inputValue('#qr-bg')).toBe('#fffaf0');
    expect(await page.locator('button:text("Remove logo")').count()).toBe(1);
    await page.getByRole('img', { name: 'Preview of the QR code' }).waitFor();
    await capture(page, 'qr-edit-filled', axe);
    await page.click('button:text("Save changes")');
    await page.waitForURL(app(`/qr/${id}`));
    expect(await api('GET', `/api/qr/${id}`)).toEqual(before);
  }, 60_000);

  it('saves a changed content and keeps the rest', async () => {
    const { id } = await api('POST', '/api/qr/add', { type: 'link', data: { url: `${rig.site.url}/a` }, name: 'Poster' });
    const before = await api('GET', `/api/qr/${id}`);
    await page.goto(app(`/qr/${id}/edit`));
    await expect.poll(() => page.inputValue('#qr-url')).toBe(`${rig.site.url}/a`);
    await page.fill('#qr-url', `${rig.site.url}/b`);
    await page.click('button:text("Save changes")');
    await page.waitForURL(app(`/qr/${id}`));
    const after = await api('GET', `/api/qr/${id}`);
    expect(after.details).toEqual({ ...before.details, data: { url: `${rig.site.url}/b` } });
  }, 60_000);

  it('found no serious or critical accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe)).toHaveLength(2);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
