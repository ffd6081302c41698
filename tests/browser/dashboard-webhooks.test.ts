import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, noneLoading, useSessionCookie, watchConsole } from '../helpers/dashboard.js';
import { createLink } from '../helpers/grouping-fixtures.js';
import { openPage } from '../helpers/nav.js';
import { signedInUser } from '../helpers/session.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** The README's check: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`. */
function signatureValid(header: string | string[] | undefined, raw: string, secret: string): boolean {
  const parts = Object.fromEntries(
    String(header)
      .split(',')
      .map((part) => part.split('=') as [string, string]),
  );
  return Boolean(parts.t && parts.v1) && createHmac('sha256', secret).update(`${parts.t}.${raw}`).digest('hex') === parts.v1;
}

/**
 * Settings → Webhooks in Chromium, against a server that may deliver to loopback: the empty state leads to the
 * form; the API's refusal of an address stands beside the field; a webhook added to a local receiver shows its
 * secret once (with a copy button, gone after a reload); a new link is delivered, signed with that secret, and
 * listed with its status, attempts and response code; Resend sends the same event again; the webhook's events
 * are edited, it is disabled and enabled, and deleted after a confirmation. Captured at 1280 and 390 px, light
 * and dark; axe and the console stay clean.
 */
describe.skipIf(!chromiumPresent())('webhooks in Chromium', () => {
  const rig = useBrowserRig({ OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_BACKOFF_MS: '200', WEBHOOK_GIVE_UP_MS: '3000' });
  let receiver: Receiver;
  let page: Page;
  let key: string;
  let linkId = 0;
  let secret = '';
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
  /** The card of the webhook to the receiver's `path`. */
  const card = (path = '/hooks') => page.locator('article.webhook', { has: page.locator(`h2:text-is("${receiver.url}${path}")`) });
  const deliveryRows = (path = '/hooks') => card(path).locator('table.deliveries-table tbody tr');
  /** The deliveries as the page lists them after pressing Refresh: "event status attempts response". */
  const listed =
    (path = '/hooks') =>
    async () => {
      await card(path).locator('button:text-is("Refresh")').click();
      await noneLoading(page);
      return deliveryRows(path).evaluateAll((rows) =>
        rows.map((row) =>
          ['Event', 'Status', 'Attempts', 'Response'].map((label) => row.querySelector(`[data-label="${label}"]`)?.textContent?.trim()).join(' | '),
        ),
      );
    };
  /** A property of the focused element (its id, text or class), read in the page. */
  const focused = (property: 'id' | 'textContent' | 'className') => page.evaluate<string>(`document.activeElement?.${property}?.trim() ?? ''`);
  const ready = async (p: Page) => {
    // Every card with its deliveries: the first and the last card's tables.
    for (const at of ['first', 'last'] as const) await p.locator('article.webhook')[at]().locator('table.deliveries-table').waitFor();
    await noneLoading(p);
  };

  beforeAll(async () => {
    await ensureWebBuilt();
    receiver = await startReceiver();
    const owner = await signedInUser(rig.server, new URL(rig.server.url).host);
    key = owner.apiKey;
    page = await rig.newPage();
    await useSessionCookie(page, rig.server.url, owner.cookie);
    consoleErrors = watchConsole(page);
  }, 180_000); // a first build of the dashboard
  afterAll(() => receiver?.close());

  it('reaches Webhooks under Settings; the empty state says what to do and leads to the form', async () => {
    await page.goto(app('/'));
    await openPage(page, 'Webhooks');
    await page.waitForURL(app('/webhooks'));
    const empty = page.locator('.empty-state');
    await eventually(() => empty.textContent()).toContain('No webhooks yet');
    expect(await empty.textContent()).toContain('choose which of those events it gets');
    expect(await page.locator('#webhook-url').count()).toBe(1);
    expect(await page.locator('.webhook-events input[type=checkbox]').count()).toBe(8);
    await capture(page, 'webhooks-empty', axe);
    await empty.locator('a:text("Add a webhook")').click();
    expect(await focused('id')).toBe('webhook-url');
  }, 60_000);

  it('shows the browser’s and the API’s refusals beside their fields', async () => {
    await page.click('button:text-is("Add webhook")');
    expect(await page.textContent('#webhook-url-error')).toContain('Enter the address');
    expect(await page.textContent('#webhook-events-error')).toBe('Choose at least one event.');
    expect(await page.getAttribute('#webhook-url', 'aria-invalid')).toBe('true');

    await page.fill('#webhook-url', 'ftp://example.com/hooks');
    await page.check('label:has-text("Link created") input');
    await page.click('button:text-is("Add webhook")');
    await eventually(() => page.locator('#webhook-url-error').textContent()).toMatch(/^url must be an http\(s\) URL/);
    expect(await page.getAttribute('#webhook-url', 'aria-describedby')).toContain('webhook-url-error');
    expect(await page.locator('#webhook-events-error').count()).toBe(0);
    expect(await page.locator('article.webhook').count()).toBe(0);
    consoleErrors.splice(0); // Chromium reports the refused request (400) as a failed resource
  }, 30_000);

  it('adds a webhook to a local receiver and shows its secret once, with a copy button', async () => {
    await page.fill('#webhook-url', `${receiver.url}/hooks`);
    await page.check('label:has-text("Link deleted") input');
    await page.click('button:text-is("Add webhook")');
    secret = (await page.locator('[data-testid=webhook-secret]').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await page.textContent('.secret')).toContain('you will not see it again');
    expect(await page.locator('.secret button:text("Copy secret")').count()).toBe(1);
    expect(await focused('className')).toBe('secret');
    await eventually(() => card().count()).toBe(1);
    expect(await card().locator('h2').textContent()).toBe(`${receiver.url}/hooks`);
    expect(await card().locator('.chips li').allTextContents()).toEqual(['Link created', 'Link deleted']);
    expect(await card().locator('.badge').first().textContent()).toBe('Active');
    expect(await page.inputValue('#webhook-url')).toBe(''); // the form is ready for another
    await noneLoading(page);
    await capture(page, 'webhooks-secret', axe);
  }, 30_000);

  it('lists a delivery of a new link, signed with that secret, and no secret after a reload', async () => {
    const link = await createLink(rig.server, key, { url: `${rig.site.url}/hooked` });
    linkId = link.id;
    await eventually(() => receiver.received.length).toBe(1);
    const [first] = receiver.received;
    expect(first!.path).toBe('/hooks');
    expect(first!.json).toMatchObject({ event: 'link.created', id: expect.stringMatching(/^evt_/) });
    expect(JSON.stringify(first!.json.data)).toContain(link.alias);
    expect(signatureValid(first!.headers['redirectory-signature'], first!.body, secret)).toBe(true);

    await page.reload();
    await eventually(listed()).toEqual([`Link created ${first!.json.id} | Delivered | 1 | HTTP 200`]);
    expect(await page.locator('[data-testid=webhook-secret]').count()).toBe(0);
    expect(await page.textContent('main')).not.toContain(secret);
    await ready(page);
    await capture(page, 'webhooks', axe);
    await captureDark(page, 'webhooks-dark', axe, ready);
  }, 60_000);

  it('resends a delivery: the receiver gets the same event again', async () => {
    const eventId = receiver.received[0]!.json.id;
    await deliveryRows().first().locator('button:text-is("Resend")').click();
    await eventually(() => card().locator('.deliveries [role=status]').textContent()).toContain('queued to be sent again');
    await eventually(() => receiver.received.length).toBe(2);
    expect(receiver.received[1]!.json.id).toBe(eventId);
    await eventually(listed()).toEqual([`Link created ${eventId} | Delivered | 1 | HTTP 200`]);
  }, 30_000);

  it('edits the events, disables and enables the webhook', async () => {
    await card().locator('button:text-is("Edit")').click();
    await page.check('article.webhook label:has-text("QR code created") input');
    await card().locator('button:text-is("Save changes")').click();
    await eventually(() => card().locator('.chips li').allTextContents()).toEqual(['Link created', 'Link deleted', 'QR code created']);
    await eventually(() => focused('textContent')).toBe('Edit'); // back where the form was opened

    await card().locator('button:text-is("Disable")').click();
    await eventually(() => card().locator('.webhook-disabled').textContent()).toContain('Disabled');
    expect(await card().locator('.webhook-disabled').textContent()).toMatch(/by its owner\. Nothing is sent until it is enabled again\.$/);
    const listedByApi = await rig.server.call('GET', '/api/webhooks', { key });
    expect(listedByApi.body.data.webhooks[0]).toMatchObject({ active: false, events: ['link.created', 'link.deleted', 'qr.created'] });

    await card().locator('button:text-is("Enable")').click();
    await eventually(() => card().locator('.badge').first().textContent()).toBe('Active');
  }, 60_000);

  it('retries a webhook whose receiver keeps failing, then disables it and says why', async () => {
    receiver.answer((_, path) => ({ status: path === '/down' ? 500 : 200 }));
    await page.fill('#webhook-url', `${receiver.url}/down`);
    await page.check('#add-webhook-h ~ form label:has-text("Link deleted") input');
    await page.click('button:text-is("Add webhook")');
    await page.locator('[data-testid=webhook-secret]').waitFor();
    await page.click('button:text-is("I have copied it")');
    expect(await page.locator('.secret').count()).toBe(0);

    const deleteLink = async (id: number) => expect((await rig.server.call('DELETE', `/api/url/${id}/delete`, { key })).status).toBe(200);
    const other = await createLink(rig.server, key, { url: `${rig.site.url}/other` });
    await deleteLink(linkId);
    const newest = async () => (await listed()())[0];
    await eventually(newest).toMatch(/^Link deleted evt_\S+ \| Delivered \| 1 \| HTTP 200$/);
    // Retried with backoff until WEBHOOK_GIVE_UP_MS has passed, then failed.
    await expect.poll(listed('/down'), { timeout: 30_000 }).toEqual([expect.stringMatching(/^Link deleted evt_\S+ \| Failed \| \d+ \| HTTP 500$/)]);
    expect(Number((await listed('/down')())[0]!.split(' | ')[2])).toBeGreaterThan(1);
    // The next failure comes after failing for that long: the webhook is disabled, and says why.
    await deleteLink(other.id);
    const state = () =>
      card('/down')
        .locator('.webhook-head')
        .evaluate((head) => head.querySelector('.webhook-disabled')?.textContent ?? '');
    await expect
      .poll(async () => (await listed('/down')()) && state(), { timeout: 30_000 })
      .toMatch(/^Disabled Disabled on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d after failing for .+: HTTP 500\. Nothing is sent until it is enabled again\.$/);
    expect(await card('/down').locator('button:text-is("Enable")').count()).toBe(1);
    await ready(page);
    await capture(page, 'webhooks-failing', axe);
    await captureDark(page, 'webhooks-failing-dark', axe, ready);
  }, 90_000);

  it('deletes the webhooks after a confirmation', async () => {
    await card('/down').locator(`button[aria-label="Delete ${receiver.url}/down"]`).click();
    await page.click('button:text-is("Delete this webhook")');
    await eventually(() => card('/down').count()).toBe(0);
    await eventually(() => focused('id')).toBe('webhooks-h'); // the card that held the focus is gone

    await card().locator(`button[aria-label="Delete ${receiver.url}/hooks"]`).click();
    expect(await card().count()).toBe(1); // the first press only asks
    await page.click('button:text-is("Delete this webhook")');
    await eventually(() => card().count()).toBe(0);
    await eventually(() => page.locator('.empty-state').count()).toBe(1);
    const listedByApi = await rig.server.call('GET', '/api/webhooks', { key });
    expect(listedByApi.body.data.webhooks).toEqual([]);
  }, 30_000);

  it('found no serious or critical accessibility violation and no console error', () => {
    expect(Object.keys(axe).length).toBe(12);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
