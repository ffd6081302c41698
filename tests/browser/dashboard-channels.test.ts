import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, watchConsole, useSessionCookie } from '../helpers/dashboard.js';
import { createLink } from '../helpers/grouping-fixtures.js';
import { signedInUser } from '../helpers/session.js';

/**
 * Campaigns and channels in Chromium: starring puts a channel first, a channel holds a link, a QR code and a bio
 * page and lets one go, a campaign shows its rotator and list addresses as the API gives them and is edited.
 * Every page is captured at 1280 and 390 px and checked with axe; the console must stay free of errors.
 */
describe.skipIf(!chromiumPresent())('campaigns and channels in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let key: string;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const made = { link: 0, qr: 0, bio: 0, campaign: 0 };
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await rig.server.call(method, path, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const cells = (column: number) =>
    page
      .locator(`tbody tr td:nth-child(${column})`)
      .allTextContents()
      .then((t) => t.map((s) => s.trim()));

  beforeAll(async () => {
    await ensureWebBuilt();
    // Signed in through the API and handed to the browser as its cookie: the sign-in page has its own tests.
    const owner = await signedInUser(rig.server, new URL(rig.server.url).host);
    key = owner.apiKey;
    made.link = (await createLink(rig.server, key, { url: `${rig.site.url}/spring`, custom: 'spring-one', title: 'Spring one' })).id;
    made.qr = (await call('POST', '/api/qr/add', { type: 'text', data: 'hello', name: 'Shop window' })).id;
    made.bio = (await call('POST', '/api/bio/add', { alias: 'my-bio', name: 'About me' })).id;
    made.campaign = (await call('POST', '/api/campaign/add', { name: 'Spring', slug: 'spring-rot', public: true })).id;
    await call('POST', `/api/campaign/${made.campaign}/assign/${made.link}`);
    page = await rig.newPage();
    await useSessionCookie(page, rig.server.url, owner.cookie);
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard

  it('lists a starred channel first, and edits a channel’s colour and description', async () => {
    await page.goto(app('/channels'));
    for (const name of ['Alpha', 'Beta']) {
      await page.fill('#new-name', name);
      await page.click('button:text("Add channel")');
      await eventually(() => cells(2)).toContain(name);
    }
    expect(await cells(2)).toEqual(['Beta', 'Alpha']);
    await page.click('[aria-label="Star Alpha"]');
    await eventually(() => cells(2)).toEqual(['Alpha', 'Beta']);
    expect(await page.getAttribute('[aria-label="Star Alpha"]', 'aria-pressed')).toBe('true');

    await page.click('[aria-label="Edit Beta"]');
    expect(await page.inputValue('#new-name')).toBe('Beta');
    await page.fill('#new-description', 'Weekly picks');
    await page.fill('#new-color', '#aa3300');
    await page.click('button:text("Save")');
    await eventually(() => cells(3)).toEqual(['', 'Weekly picks']);
    const channels = (await call('GET', '/api/channels')).data.channels;
    expect(channels.map((c: { name: string; color: string; starred: boolean }) => [c.name, c.color, c.starred])).toEqual([
      ['Alpha', '#0b57d0', true],
      ['Beta', '#aa3300', false],
    ]);
    await capture(page, 'channels', axe);
  }, 60_000);

  it('adds a link, a QR code and a bio page to a channel, and removes one', async () => {
    await page.click('a:text("Alpha")');
    await page.waitForURL(/\/app\/channels\/\d+$/);
    const channelId = Number(page.url().split('/').pop());
    await eventually(() => page.textContent('main')).toContain('Nothing in this channel yet.');
    for (const [type, id] of [
      ['links', made.link],
      ['qr', made.qr],
      ['bio', made.bio],
    ] as const) {
      await page.selectOption('#item-type', type);
      await page.selectOption('#item-id', String(id));
      await page.click('form[aria-labelledby=add-item-h] button[type=submit]');
      await eventually(() => page.locator('tbody tr').count()).toBe(type === 'links' ? 1 : type === 'qr' ? 2 : 3);
    }
    // Newest assignment first, but three assignments may share a second: the order within one is the API's own.
    expect((await cells(1)).sort()).toEqual(['Bio page', 'Link', 'QR code']);
    expect((await cells(2)).sort()).toEqual(['About me', 'Shop window', 'Spring one']);
    await capture(page, 'channel', axe);

    await page.click('[aria-label="Remove Shop window from the channel"]');
    await eventually(() => cells(1)).toEqual(['Bio page', 'Link']);
    const items = (await call('GET', `/api/channel/${channelId}`)).data.items;
    expect(items.map((i: { type: string }) => i.type)).toEqual(['bio', 'links']);
    expect((await rig.server.call('GET', `/api/qr/${made.qr}`, { key })).status).toBe(200);
  }, 60_000);

  it('shows a campaign’s rotator and list addresses as the API gives them, edits it and opens its links', async () => {
    const [campaign] = (await call('GET', '/api/campaigns')).data.campaigns;
    await page.goto(app('/campaigns'));
    await eventually(() => cells(2)).toEqual([`${campaign.rotator} Copy`]);
    expect(campaign.rotator).toBe(`${rig.server.url}/r/spring-rot`);
    expect(await cells(3)).toEqual([`${campaign.list} Copy public`]);
    expect(await page.locator(`[aria-label="Copy ${campaign.list}"]`).count()).toBe(1);
    await capture(page, 'campaigns', axe);

    await page.click('[aria-label="Edit Spring"]');
    expect(await page.inputValue('#new-slug')).toBe('spring-rot');
    await page.fill('#new-name', 'Summer');
    await page.uncheck('#new-public');
    await page.click('button:text("Save")');
    await eventually(() => cells(1)).toEqual(['Summer']);
    const [saved] = (await call('GET', '/api/campaigns')).data.campaigns;
    expect(saved).toMatchObject({ name: 'Summer', public: false, rotator: campaign.rotator });
    expect(await cells(3)).toEqual([`${saved.list} Copy private`]);

    await page.click('a:text("Summer")');
    await page.waitForURL((url) => url.pathname === '/app/links' && url.searchParams.get('campaign') === String(made.campaign));
    await eventually(() => page.locator('table.links tbody tr').count()).toBe(1);
    expect(await page.textContent('table.links tbody')).toContain('spring-one');
  }, 60_000);

  it('found no serious or critical accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe)).toHaveLength(6);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
