import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, watchConsole, useSessionCookie } from '../helpers/dashboard.js';
import { signedInUser } from '../helpers/session.js';

/**
 * The link form's Routing section in Chromium (issue 27): rules with conditions and a split, a default split with
 * each variant's share, a visit cap and an expired address, created and edited through the form and read back
 * from `GET /api/url/{id}` as entered; the API's 400 for a bad IP shown beside its input; the link page's
 * read-only view with each variant's clicks. Each page at 1280 and 390 px with axe; the console stays clean.
 */
describe.skipIf(!chromiumPresent())('link routing in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let key: string;
  let id = 0;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
  const details = async () => {
    const res = await rig.server.call('GET', `/api/url/${id}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  // The browser and this process share a time zone: a local datetime-local value as the API's UTC text.
  const utc = (local: string) => new Date(local).toISOString().slice(0, 19).replace('T', ' ');
  const start = '2026-12-01T10:00';

  const queryRule = {
    conditions: [
      { type: 'query', name: 'ref', value: 'mail' },
      { type: 'language', value: 'fr' },
      { type: 'date', after: utc(start) },
    ],
    url: 'https://example.com/mail',
  };
  const ipRule = {
    conditions: [{ type: 'ip', value: '198.51.100.0/24' }],
    split: [
      { url: 'https://example.com/a', weight: 3 },
      { url: 'https://example.com/b', weight: 1 },
    ],
  };
  const defaultSplit = [
    { url: 'https://example.com/home', weight: 1 },
    { url: 'https://example.com/new', weight: 1 },
    { url: 'https://example.com/third', weight: 2 },
  ];

  beforeAll(async () => {
    await ensureWebBuilt();
    const owner = await signedInUser(rig.server, new URL(rig.server.url).host);
    key = owner.apiKey;
    page = await rig.newPage();
    page.setDefaultTimeout(15_000);
    await useSessionCookie(page, rig.server.url, owner.cookie);
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard

  it('creates a link with two rules (one a split), a default split, a cap and an expired address', async () => {
    await page.goto(app('/links/new'));
    await page.fill('#url', 'example.com/home');
    await page.click('summary:has-text("Routing")');
    await page.click('button:text-is("Add rule")');
    await page.fill('#rule-0-cond-0', 'ref');
    await page.fill('#rule-0-cond-0-value', 'mail');
    await page.click('button:text-is("Add condition")');
    await page.selectOption('#rule-0-cond-1-type', 'language');
    await page.fill('#rule-0-cond-1', 'fr');
    await page.click('button:text-is("Add condition")');
    await page.selectOption('#rule-0-cond-2-type', 'date');
    await page.fill('#rule-0-cond-2', start);
    await page.fill('#rule-0-url', 'example.com/mail');
    await page.click('button:text-is("Add rule")');
    await page.selectOption('#rule-1-cond-0-type', 'ip');
    await page.fill('#rule-1-cond-0', '198.51.100.0/24');
    await page.getByRole('radiogroup', { name: 'Where rule 2 sends visitors' }).getByLabel('Split between addresses').check();
    await page.fill('#rule-1-split-0-url', 'https://example.com/a');
    await page.fill('#rule-1-split-0-weight', '3');
    await page.fill('#rule-1-split-1-url', 'https://example.com/b');
    await page.click('button:text-is("Split the destination between addresses")');
    expect(await page.inputValue('#split-0-url')).toBe('https://example.com/home'); // the destination, as a first variant
    await page.fill('#split-1-url', 'https://example.com/new');
    await page.locator('fieldset.split', { hasText: 'Default split' }).locator('button:text-is("Add variant")').click();
    await page.fill('#split-2-url', 'https://example.com/third');
    await page.fill('#split-2-weight', '2');
    const shares = page.locator('fieldset.split', { hasText: 'Default split' }).locator('output');
    expect(await shares.allTextContents()).toEqual(['25%', '25%', '50%']);
    expect(await page.locator('fieldset.split', { hasText: 'Split of rule 2' }).locator('output').allTextContents()).toEqual(['75%', '25%']);
    await page.fill('#maxvisits', '500');
    await page.fill('#expiredurl', 'https://example.com/over');
    expect(await page.textContent('details[data-section=routing] .fold-state')).toBe('2 rules, split 3 ways, cap 500 visits, expired address');
    await capture(page, 'routing-form', axe);
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.searchParams.has('created'));
    id = Number(new URL(page.url()).searchParams.get('created'));
    const { details: got } = await details();
    expect(got.rules).toEqual([queryRule, ipRule]);
    expect(got.split).toEqual(defaultSplit);
    expect(got).toMatchObject({ maxvisits: 500, expiredurl: 'https://example.com/over', longurl: 'https://example.com/home' });
  }, 90_000);

  it('edits the rules: the second moved first, a condition removed; the rest kept', async () => {
    await page.goto(app(`/links/${id}/edit`));
    await page.locator('#rule-1-cond-0').waitFor(); // a section that holds a value opens on edit
    await page.click('button[aria-label="Move rule 2 up"]');
    expect(await page.inputValue('#rule-0-cond-0')).toBe('198.51.100.0/24');
    // Focus follows the rule; at the top, to the button that can still move it.
    await eventually(() => page.evaluate<string | null | undefined>("document.activeElement?.getAttribute('aria-label')")).toBe('Move rule 1 down');
    await page.click('button[aria-label="Remove rule 2, condition 2"]');
    expect(await page.locator('#rule-1-cond-1-type').inputValue()).toBe('date');
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === `/app/links/${id}`);
    const { details: got } = await details();
    expect(got.rules).toEqual([ipRule, { ...queryRule, conditions: [queryRule.conditions[0], queryRule.conditions[2]] }]);
    expect(got.split).toEqual(defaultSplit);
    expect(got).toMatchObject({ maxvisits: 500, expiredurl: 'https://example.com/over' });
  }, 60_000);

  it("keeps a date condition's seconds through the form", async () => {
    const dated = { conditions: [{ type: 'date', after: '2026-12-01 10:00:30', before: '2027-01-01 23:59:59' }], url: 'https://example.com/timed' };
    const created = await rig.server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/', rules: [dated] } });
    expect(created.status, created.text).toBe(200);
    const other = created.body.id as number;
    await page.goto(app(`/links/${other}/edit`));
    await page.locator('#rule-0-cond-0').waitFor();
    await page.fill('#rule-0-url', 'https://example.com/timed2'); // the rules are sent again, their dates with them
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === `/app/links/${other}`);
    const res = await rig.server.call('GET', `/api/url/${other}`, { key });
    expect(res.body.details.rules).toEqual([{ ...dated, url: 'https://example.com/timed2' }]);
  }, 60_000);

  it("shows the API's 400 for a bad IP beside its input, and saves nothing", async () => {
    await page.goto(app(`/links/${id}/edit`));
    await page.locator('#rule-1-cond-0').waitFor();
    await page.selectOption('#rule-1-cond-0-type', 'ip');
    await page.fill('#rule-1-cond-0', '300.1.2.3/40');
    const answered = page.waitForResponse((res) => res.url().endsWith(`/api/url/${id}/update`));
    await page.click('button[type=submit]');
    const res = await answered;
    expect(res.status()).toBe(400);
    expect((await res.json()).message).toMatch(/^rules\[1\]\.conditions\[0\]: ip needs/);
    await eventually(() => page.locator('#rule-1-cond-0-error').textContent()).toMatch(/^⚠?\s*IP needs a value: an IPv4 or IPv6 address/);
    expect(await page.getAttribute('#rule-1-cond-0', 'aria-invalid')).toBe('true');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('rule-1-cond-0');
    expect(page.url()).toBe(app(`/links/${id}/edit`));
    await capture(page, 'routing-error', axe);
    await captureDark(page, 'routing-form-dark', axe, (dark) => dark.locator('#rule-1-cond-0').waitFor());
    expect((await details()).details.rules[1].conditions[0]).toEqual({ type: 'query', name: 'ref', value: 'mail' });
  }, 60_000);

  it("shows the rules, the split with each variant's clicks and the cap on the link page", async () => {
    const alias = new URL((await details()).details.shorturl).pathname.slice(1);
    const visit = await rig.server.visit(`/${alias}`, {
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36' },
    });
    expect(visit.status).toBe(302);
    await rig.server.ctx.clicks.flush();
    const variants = (await details()).data.variants as Array<{ url: string; clicks: number }>;
    expect(variants.map((v) => v.url)).toEqual([...defaultSplit, ...ipRule.split].map((v) => v.url));
    const hit = variants.findIndex((v) => v.clicks === 1);
    expect(hit).toBeGreaterThanOrEqual(0);
    await page.goto(app(`/links/${id}`));
    const dd = (label: string) => page.locator(`.summary dt:text-is("${label}") + dd`);
    const items = async (label: string) => (await dd(label).locator('li').allTextContents()).map((s) => s.replace(/ · .*/, ''));
    await eventually(() => dd('Rule 1').locator('.rule-when').textContent()).toBe('If IP address in 198.51.100.0/24');
    expect(await items('Rule 1')).toEqual(['75% https://example.com/a', '25% https://example.com/b']);
    expect(await dd('Rule 2').textContent()).toMatch(/^If ref = mail and date from .+→ https:\/\/example\.com\/mail$/);
    expect(await items('Split')).toEqual(['25% https://example.com/home', '25% https://example.com/new', '50% https://example.com/third']);
    expect(await dd('Split').locator('li').nth(hit).textContent()).toContain('· 1 click, 1 unique');
    expect(await dd('Visit cap').textContent()).toBe('500 clicks');
    expect(await dd('When expired').textContent()).toBe('https://example.com/over');
    await capture(page, 'routing-link', axe);
    await captureDark(page, 'routing-link-dark', axe, (dark) => dark.locator('.split-list').first().waitFor());
  }, 60_000);

  it('found no serious or critical accessibility violation and no console error on any page', () => {
    expect(Object.keys(axe).length).toBeGreaterThanOrEqual(6);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    // The refused save is the one failed request the console may report.
    expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
