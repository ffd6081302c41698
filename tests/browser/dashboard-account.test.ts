import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/features/account/service.js';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, noneLoading, watchConsole } from '../helpers/dashboard.js';
import { openPage } from '../helpers/nav.js';
import { PASSWORD, signIn } from '../helpers/session.js';

/**
 * The Account page's API keys and activity log in Chromium: an owner signs in, makes a key that may only read
 * and write links, uses its secret over HTTP (a links route answers, another area's is refused with
 * scope_missing), revokes it after confirming, and reads the three events in the activity log. The page is
 * captured at 1280 and 390 px, light and dark, and checked with axe; the console must stay free of errors.
 */
/**
 * The Account page with its keys and its log in place and nothing loading. settle() alone is not enough here: a
 * page's networkidle can come before its queries start, and its one-second poll for "Loading…" ran out on a busy
 * PostgreSQL run.
 */
async function loaded(page: Page): Promise<void> {
  await page.locator('table.keys').waitFor();
  await page.locator('table.activity').waitFor();
  await noneLoading(page);
}

/** How a moment of this test reads: last-used times and log entries are seconds old. */
const RECENT = /^(just now|1 minute ago) /;

describe.skipIf(!chromiumPresent())('account keys and activity in Chromium', () => {
  const rig = useBrowserRig();
  let page: Page;
  let email: string;
  let secret: string;
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });
  const keyRow = (name: string) => page.locator('table.keys tbody tr', { has: page.locator(`th:text-is("${name}")`) });
  const events = () => page.locator('table.activity tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event')));

  beforeAll(async () => {
    await ensureWebBuilt();
    email = (await rig.server.user()).email;
    await setPassword(rig.server.ctx, email, PASSWORD);
    page = await rig.newPage();
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard

  it('signs in and opens the Account page', async () => {
    await page.goto(app('/signin'));
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/app\/?$/);
    await openPage(page, 'Account');
    await page.waitForURL(app('/account'));
    await eventually(() => events()).toContain('signin');
    expect(await page.locator('table.activity tr[data-event=signin]').first().textContent()).toContain('Dashboard');
  }, 60_000);

  it('creates a key for links only and shows its secret once, with a copy button', async () => {
    await page.fill('#key-name', 'Zapier');
    expect(await page.inputValue('#scope-links')).toBe('write'); // an integration's usual need is the default
    expect(await page.isChecked('#key-full')).toBe(false);
    await page.click('button:text("Create key")');
    secret = (await page.locator('[data-testid=api-key]').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(20);
    expect(await page.textContent('.secret')).toContain('won’t see it again');
    expect(await page.locator('.secret button:text("Copy key")').count()).toBe(1);
    await eventually(() => keyRow('Zapier').count()).toBe(1);
    expect(await keyRow('Zapier').locator('.chips li').allTextContents()).toEqual(['Links: read and write']);
    expect(await keyRow('Zapier').locator('td[data-label="Last used"]').textContent()).toBe('never');
    expect(await keyRow('Zapier').locator('td[data-label="Expires"]').textContent()).toBe('never');
    await loaded(page);
    await capture(page, 'account-new-key', axe);

    // The API's refusal is shown by the form, and the secret already shown stays.
    await page.fill('#key-name', 'Zapier');
    await page.click('button:text("Create key")');
    await eventually(() => page.textContent('.new-key [role=alert]')).toBe('You already have an API key with that name.');
    expect(await page.textContent('[data-testid=api-key]')).toBe(secret);
    consoleErrors.splice(0); // Chromium reports the refused request (409) as a failed resource
  }, 60_000);

  it('the secret works over HTTP for links and is refused elsewhere with scope_missing', async () => {
    const made = await rig.server.call('POST', '/api/url/add', { key: secret, body: { url: 'https://example.com/from-zapier' } });
    expect(made.status, made.text).toBe(200);
    const links = await rig.server.call('GET', '/api/urls', { key: secret });
    expect(links.status, links.text).toBe(200);
    expect(links.body.data.urls.map((u: { longurl: string }) => u.longurl)).toContain('https://example.com/from-zapier');
    const domains = await rig.server.call('GET', '/api/domains', { key: secret });
    expect(domains.status, domains.text).toBe(403);
    expect(domains.body).toMatchObject({ error: 1, code: 'scope_missing' });
  });

  it('lists the key without its secret after a reload, with when it was last used', async () => {
    await page.reload();
    await eventually(() => keyRow('Zapier').count()).toBe(1);
    expect(await page.locator('[data-testid=api-key]').count()).toBe(0);
    expect(await page.textContent('main')).not.toContain(secret);
    expect(await keyRow('Zapier').locator('td[data-label="Last used"] time').textContent()).toMatch(RECENT);
    await loaded(page);
    await capture(page, 'account', axe);
    await captureDark(page, 'account-dark', axe, loaded);
  }, 60_000);

  it('revokes the key after a confirmation, and the key is refused from then on', async () => {
    await keyRow('Zapier').locator('button[aria-label="Revoke Zapier"]').click();
    expect(await keyRow('Zapier').count()).toBe(1); // the first press only asks
    await page.click('button:text("Revoke Zapier")');
    await eventually(() => keyRow('Zapier').count()).toBe(0);
    const refused = await rig.server.call('GET', '/api/urls', { key: secret });
    expect(refused.status).toBe(401);
  }, 30_000);

  it('shows the key’s creation and revocation and the sign-in in the activity log, newest first', async () => {
    await eventually(() => events()).toEqual(expect.arrayContaining(['key_revoked', 'key_created', 'signin']));
    const order = await events();
    expect(order.indexOf('key_revoked')).toBeLessThan(order.indexOf('key_created'));
    expect(order.indexOf('key_created')).toBeLessThan(order.indexOf('signin'));
    const created = page.locator('table.activity tr[data-event=key_created]');
    expect(await created.locator('td[data-label="Event"]').textContent()).toBe('API key created');
    expect(await created.locator('td[data-label="Via"]').textContent()).toBe('Dashboard');
    expect(await created.locator('td[data-label="When"] time').textContent()).toMatch(RECENT);
    await loaded(page);
    await capture(page, 'account-revoked', axe);
  }, 30_000);

  it('changes the password only with the current one: a wrong one is refused on the page, the right one saves', async () => {
    const profile = page.locator('form[aria-labelledby=profile-h]');
    await page.fill('#account-password', 'a-new-password-1');
    expect(await page.getAttribute('#account-current', 'required')).not.toBeNull();
    await page.fill('#account-current', 'not-the-password');
    await profile.locator('button[type=submit]').click();
    await eventually(() => profile.locator('[role=alert]').count()).toBeGreaterThan(0);
    await expect(signIn(rig.server, email, 'a-new-password-1', new URL(rig.server.url).host)).rejects.toThrow(/sign-in failed: 4\d\d/);
    // The refused save is an answer the page shows; Chromium also logs it as a failed resource, which is expected.
    const refused = consoleErrors.findIndex((e) => e.includes('status of 403'));
    if (refused >= 0) consoleErrors.splice(refused, 1);
    await page.fill('#account-current', PASSWORD);
    await profile.locator('button[type=submit]').click();
    await profile.locator('p[role=status]:text("Saved.")').waitFor();
    expect((await signIn(rig.server, email, 'a-new-password-1', new URL(rig.server.url).host)).email).toBe(email);
  }, 30_000);

  it('found no serious or critical accessibility violation and no console error', () => {
    expect(Object.keys(axe).length).toBe(8);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
