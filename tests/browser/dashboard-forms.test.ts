import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, watchConsole } from '../helpers/dashboard.js';
import { PASSWORD } from '../helpers/session.js';

/**
 * Forms people finish (issue 25 §3) in Chromium: pixel types by their providers' names, "Make a new API key"
 * asking first, a bio page's empty link row refused beside the row, and an import whose columns are mapped in
 * the page. Each page is captured at 1280 and 390 px with axe; the console must stay free of errors.
 */
describe.skipIf(!chromiumPresent())('dashboard forms in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const pid = process.pid;
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
  let key: string;
  const api = (path: string, as = key) => rig.server.call('GET', path, { key: as });

  beforeAll(async () => {
    await ensureWebBuilt();
    // The account signed in below; its API key reads what the pages wrote.
    const user = await rig.server.user();
    const email = user.email;
    key = user.apiKey;
    await setPassword(rig.server.ctx, email, PASSWORD);
    page = await rig.newPage();
    page.setDefaultTimeout(15_000);
    consoleErrors = watchConsole(page);
    await page.goto(app('/signin'));
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
  }, 180_000); // a first build of the dashboard

  it('names pixel types by their provider, with the API value beside, in the form and the list', async () => {
    await page.goto(app('/pixels'));
    // The form is drawn once the page's list has loaded; allTextContents does not wait for it.
    await eventually(() => page.locator('#new-type option').count()).toBe(13);
    const labels = await page.locator('#new-type option').allTextContents();
    expect(labels).toEqual(
      expect.arrayContaining([
        'Google Tag Manager (tagmanagerpixel)',
        'Meta Pixel (socialnetworkpixel)',
        'LinkedIn Insight Tag (professionalnetworkpixel)',
        'TikTok Pixel (shortvideo)',
      ]),
    );
    expect(await page.locator('label[for=new-type]').textContent()).toBe('Provider');
    await page.selectOption('#new-type', { label: 'Meta Pixel (socialnetworkpixel)' });
    await page.fill('#new-name', 'Shop Meta');
    await page.fill('#new-tag', '1234567890');
    await page.click('button:text("Add pixel")');
    const row = page.locator('tbody tr', { hasText: 'Shop Meta' });
    await eventually(() => row.count()).toBe(1);
    expect((await row.locator('td').nth(1).textContent())?.replace(/\s+/g, ' ')).toBe('Meta Pixel (socialnetworkpixel)');
    const stored = (await api('/api/pixels')).body.data.pixels as Array<{ name: string; type: string }>;
    expect(stored.find((p) => p.name === 'Shop Meta')?.type).toBe('socialnetworkpixel');
    await capture(page, 'forms-pixels', axe);
  }, 60_000);

  it('refuses a bio page with an empty link row, with the message beside the row, and saves nothing', async () => {
    const alias = `forms-bio-${pid}`;
    await page.goto(app('/bio/new'));
    await page.fill('#bio-alias', alias);
    await page.fill('#bio-name', 'My links');
    await page.click('button:text("Add link")');
    await page.fill('#bio-link-0-key', 'Shop');
    await page.fill('#bio-link-0-value', 'https://shop.example.com');
    await page.click('button:text("Add link")');
    await page.click('button:text("Create bio page")');
    await eventually(() => page.locator('#bio-link-1-error').textContent()).toBe('This row is empty: add a URL, or remove the row.');
    expect(await page.getAttribute('#bio-link-1-value', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#bio-link-1-value', 'aria-describedby')).toBe('bio-link-1-error');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('bio-link-1-value');
    expect(await page.locator('#bio-link-0-error').count()).toBe(0);
    expect(page.url()).toBe(app('/bio/new'));
    await capture(page, 'forms-bio-empty-row', axe);
    const none = (await api('/api/bio')).body.data.bio as Array<{ alias: string }>;
    expect(none.map((b) => b.alias)).not.toContain(alias);

    // A title without a URL is refused too; removing the row lets the page be saved.
    await page.fill('#bio-link-1-key', 'Blog');
    await eventually(() => page.locator('#bio-link-1-error').textContent()).toBe('This link has no URL: add one, or remove the row.');
    await page.click('button[aria-label="Remove link 2"]');
    expect(await page.locator('.row-error').count()).toBe(0);
    await page.click('button:text("Create bio page")');
    await page.waitForURL(app('/bio'));
    const made = (await api('/api/bio')).body.data.bio as Array<{ id: number; alias: string }>;
    const id = made.find((b) => b.alias === alias)!.id;
    expect((await api(`/api/bio/${id}`)).body.data.links).toEqual([{ title: 'Shop', url: 'https://shop.example.com' }]);
  }, 60_000);

  it('imports a CSV headed Destination,Slug,Notes after its columns are mapped in the page', async () => {
    await page.goto(app('/transfer'));
    const csv = `Destination,Slug,Notes\nhttps://example.com/spring,forms-a-${pid},Spring sale\nhttps://example.com/autumn,forms-b-${pid},Autumn sale\n`;
    await page.setInputFiles('#import-file', { name: 'campaign.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await eventually(() => page.locator('.column-mapper select').count()).toBe(3);
    expect(await page.locator('.column-mapper .column-name').allTextContents()).toEqual(['Destination', 'Slug', 'Notes']);
    expect([await page.inputValue('#column-0'), await page.inputValue('#column-1'), await page.inputValue('#column-2')]).toEqual([
      'url',
      'alias',
      'ignore',
    ]);
    // Two columns on one field cannot be sent.
    await page.selectOption('#column-2', 'alias');
    expect(await page.locator('.column-mapper [role=alert]').textContent()).toContain('choose one column only');
    expect(await page.isDisabled('button:text-is("Import")')).toBe(true);
    await page.selectOption('#column-2', 'description');
    expect(await page.locator('.column-mapper [role=alert]').count()).toBe(0);
    await capture(page, 'forms-import-mapping', axe);
    await page.click('button:text-is("Import")');
    await eventually(() => page.textContent('[data-testid=import-status]')).toMatch(/^Finished: 2 imported, 0 failed/);
    expect(await page.textContent('#job-h')).toContain('columns format');
    for (const [slug, description] of [
      [`forms-a-${pid}`, 'Spring sale'],
      [`forms-b-${pid}`, 'Autumn sale'],
    ]) {
      const list = (await api(`/api/urls?q=${slug}`)).body.data.urls as Array<{ id: number; alias: string }>;
      const link = list.find((l) => l.alias === slug)!;
      expect((await api(`/api/url/${link.id}`)).body.details).toMatchObject({ description });
    }
    await capture(page, 'forms-import-done', axe);
  }, 90_000);

  it('asks before making a new API key: cancel keeps the old key, confirm replaces it', async () => {
    const old = key;
    await page.goto(app('/account'));
    await page.locator('table.keys').waitFor();
    await page.click('button:text("Make a new API key")');
    const question = page.locator('#replace-key-q');
    expect(await question.textContent()).toContain('The old key stops working at once');
    expect(await question.textContent()).toContain('Your other keys keep working');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('replace-key-q');
    await capture(page, 'forms-new-key-confirm', axe);
    await page.click('.replace-key button:text("Cancel")');
    expect(await question.count()).toBe(0);
    expect(await page.locator('[data-testid=api-key]').count()).toBe(0);
    expect((await api('/api/account', old)).status).toBe(200);

    await page.click('button:text("Make a new API key")');
    await page.click('button:text("Replace the key")');
    const secret = (await page.locator('[data-testid=api-key]').textContent())!.trim();
    expect(secret).not.toBe(old);
    expect(await page.textContent('#secret-h')).toBe('Key “default” is ready');
    expect((await api('/api/account', old)).status).toBe(401);
    expect((await api('/api/account', secret)).status).toBe(200);
    await capture(page, 'forms-new-key-made', axe);
  }, 60_000);

  it('has no serious axe violation and nothing in the console', () => {
    for (const [name, violations] of Object.entries(axe)) expect(violations, name).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
