import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, useBrowserRig } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/build.js';
import { capture, captureDark, noneLoading, useSessionCookie, watchConsole } from '../helpers/dashboard.js';
import { createLink } from '../helpers/grouping-fixtures.js';
import { openPage } from '../helpers/nav.js';
import { signedInUser } from '../helpers/session.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; event: string; created: string; data: Record<string, unknown> };
}

/** A receiver of webhooks on 127.0.0.1: records every POST and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) as Received['body'] });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
  const rig = useBrowserRig({ OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_BACKOFF_MS: '200' });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let page: Page;
  let key: string;
  let secret = '';
  let consoleErrors: string[];
  const axe: Record<string, string[]> = {};
  const app = (path = '') => `${rig.server.url}/app${path}`;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  const card = () => page.locator('article.webhook');
  const deliveryRows = () => card().locator('table.deliveries-table tbody tr');
  /** The deliveries as the page lists them after pressing Refresh: "event status attempts response". */
  const listed = async () => {
    await card().locator('button:text-is("Refresh")').click();
    await noneLoading(page);
    return deliveryRows().evaluateAll((rows) =>
      rows.map((row) =>
        ['Event', 'Status', 'Attempts', 'Response'].map((label) => row.querySelector(`[data-label="${label}"]`)?.textContent?.trim()).join(' | '),
      ),
    );
  };
  const ready = async (p: Page) => {
    await p.locator('article.webhook table.deliveries-table').waitFor();
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
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('webhook-url');
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
    expect(await page.evaluate(() => document.activeElement?.classList.contains('secret'))).toBe(true);
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
    await eventually(() => receiver.received.length).toBe(1);
    const [first] = receiver.received;
    expect(first!.path).toBe('/hooks');
    expect(first!.body).toMatchObject({ event: 'link.created', id: expect.stringMatching(/^evt_/) });
    expect(JSON.stringify(first!.body.data)).toContain(link.alias);
    expect(signatureValid(first!.headers['redirectory-signature'], first!.raw, secret)).toBe(true);

    await page.reload();
    await eventually(listed).toEqual(['Link created ' + first!.body.id + ' | Delivered | 1 | HTTP 200']);
    expect(await page.locator('[data-testid=webhook-secret]').count()).toBe(0);
    expect(await page.textContent('main')).not.toContain(secret);
    await ready(page);
    await capture(page, 'webhooks', axe);
    await captureDark(page, 'webhooks-dark', axe, ready);
  }, 60_000);

  it('resends a delivery: the receiver gets the same event again', async () => {
    const eventId = receiver.received[0]!.body.id;
    await deliveryRows().first().locator('button:text-is("Resend")').click();
    await eventually(() => card().locator('.deliveries [role=status]').textContent()).toContain('queued to be sent again');
    await eventually(() => receiver.received.length).toBe(2);
    expect(receiver.received[1]!.body.id).toBe(eventId);
    await eventually(listed).toEqual([`Link created ${eventId} | Delivered | 1 | HTTP 200`]);
  }, 30_000);

  it('edits the events, disables and enables the webhook', async () => {
    await card().locator('button:text-is("Edit")').click();
    await page.check('article.webhook label:has-text("QR code created") input');
    await card().locator('button:text-is("Save changes")').click();
    await eventually(() => card().locator('.chips li').allTextContents()).toEqual(['Link created', 'Link deleted', 'QR code created']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');

    await card().locator('button:text-is("Disable")').click();
    await eventually(() => card().locator('.webhook-disabled').textContent()).toContain('Disabled');
    expect(await card().locator('.webhook-disabled').textContent()).toMatch(/by its owner\. Nothing is sent until it is enabled again\.$/);
    const listedByApi = await rig.server.call('GET', '/api/webhooks', { key });
    expect(listedByApi.body.data.webhooks[0]).toMatchObject({ active: false, events: ['link.created', 'link.deleted', 'qr.created'] });
    await noneLoading(page);
    await capture(page, 'webhooks-disabled', axe);

    await card().locator('button:text-is("Enable")').click();
    await eventually(() => card().locator('.badge').first().textContent()).toBe('Active');
  }, 60_000);

  it('deletes the webhook after a confirmation', async () => {
    await card().locator(`button[aria-label="Delete ${receiver.url}/hooks"]`).click();
    expect(await card().count()).toBe(1); // the first press only asks
    await page.click('button:text-is("Delete this webhook")');
    await eventually(() => card().count()).toBe(0);
    await eventually(() => page.locator('.empty-state').count()).toBe(1);
    const listedByApi = await rig.server.call('GET', '/api/webhooks', { key });
    expect(listedByApi.body.data.webhooks).toEqual([]);
  }, 30_000);

  it('found no serious or critical accessibility violation and no console error', () => {
    expect(Object.keys(axe).length).toBe(10);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
