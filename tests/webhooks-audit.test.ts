import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.js';

/**
 * Issue 38 item 11: a delivery never follows a redirect (the body and its signature would go to another host),
 * and webhook changes are the account's activity, each webhook keeping the key that made it.
 */
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer({ RATE_LIMIT_MAX: '100000', OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_GIVE_UP_MS: '400' });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe('redirects', () => {
  it('counts a redirect as a failed delivery and never sends the body on', async () => {
    const { apiKey: key } = await server.user();
    receiver.answer((_n, path) => (path === '/moved' ? { status: 307, location: `${receiver.url}/elsewhere` } : { status: 200 }));
    const hook = (await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/moved`, events: ['link.created'] } })).body;
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/redirected' } });
    let entry: any;
    await until(async () => {
      entry = (await server.call('GET', '/api/webhooks', { key })).body.data.webhooks.find((w: { id: number }) => w.id === hook.id);
      return entry.active === false;
    }, 'disabled');
    expect(entry.reason).toMatch(/after failing for 400 ms: redirect \(HTTP 307\) not followed$/);
    const delivery = (await server.call('GET', `/api/webhook/${hook.id}/deliveries`, { key })).body.data.deliveries[0];
    expect(delivery).toMatchObject({ status: 'failed', responseCode: 307 });
    expect(receiver.received.filter((r) => r.path === '/moved').length).toBeGreaterThan(0);
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toEqual([]);
    receiver.answer(() => ({ status: 200 }));
  });
});

describe('who changed a webhook', () => {
  it('logs adds, updates and deletes with via, and keeps the key that made each webhook', async () => {
    const user = await server.user();
    const made = await server.call('POST', '/api/key/add', {
      key: user.apiKey,
      body: { name: 'hooks-bot', scopes: ['account:read', 'account:write'] },
    });
    expect(made.status, made.text).toBe(200);
    const key = made.body.key as string;
    const added = await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/audit`, events: ['qr.created'] } });
    expect(added.status, added.text).toBe(200);
    const listed = (await server.call('GET', '/api/webhooks', { key: user.apiKey })).body.data.webhooks;
    expect(listed).toEqual([expect.objectContaining({ id: added.body.id, keyid: made.body.id, via: 'hooks-bot' })]);
    expect(added.body).toMatchObject({ keyid: made.body.id, via: 'hooks-bot' });
    expect((await server.call('PUT', `/api/webhook/${added.body.id}/update`, { key: user.apiKey, body: { active: false } })).status).toBe(200);
    expect((await server.call('DELETE', `/api/webhook/${added.body.id}/delete`, { key })).status).toBe(200);
    const { activity } = (await server.call('GET', '/api/account/activity', { key: user.apiKey })).body.data;
    const hookEntries = activity.filter((a: { event: string }) => a.event.startsWith('webhook_'));
    expect(hookEntries.map((a: { event: string; via: string }) => [a.event, a.via])).toEqual([
      ['webhook_deleted', 'hooks-bot'],
      ['webhook_updated', 'default'],
      ['webhook_added', 'hooks-bot'],
    ]);
  });
});
