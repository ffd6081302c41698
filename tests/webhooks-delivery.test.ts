import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.js';

/**
 * How deliveries fail: outbound rules (no loopback without OUTBOUND_ALLOW_LOOPBACK, no private address on a
 * redirect hop) and a webhook failing for WEBHOOK_GIVE_UP_MS, which is disabled with its reason.
 */
let receiver: Receiver;
const servers: TestServer[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await receiver.close();
});

async function serverWith(env: Record<string, string>): Promise<{ server: TestServer; key: string }> {
  const server = await startServer({ RATE_LIMIT_MAX: '100000', WEBHOOK_BACKOFF_MS: '50', ...env });
  servers.push(server);
  return { server, key: (await server.user()).apiKey };
}

async function latestDelivery(server: TestServer, key: string, hook: number, check: (d: any) => boolean): Promise<any> {
  let delivery: any;
  await until(async () => {
    delivery = (await server.call('GET', `/api/webhook/${hook}/deliveries`, { key })).body.data.deliveries[0];
    return delivery !== undefined && check(delivery);
  }, 'the delivery');
  return delivery;
}

/** Waits until the webhook is disabled and answers its reason (the last failure, in words). */
async function disabledReason(server: TestServer, key: string, hook: number): Promise<string> {
  let entry: any;
  await until(async () => {
    entry = (await server.call('GET', '/api/webhooks?limit=100', { key })).body.data.webhooks.find((w: { id: number }) => w.id === hook);
    return entry.active === false;
  }, 'disabled');
  return entry.reason as string;
}

const REFUSED = /after failing for 400 ms: refused address \(not a public one\)$/;

describe('outbound rules', () => {
  it('never connects to a loopback receiver without OUTBOUND_ALLOW_LOOPBACK', async () => {
    const { server, key } = await serverWith({ WEBHOOK_GIVE_UP_MS: '400' });
    const literal = await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/never`, events: ['link.created'] } });
    expect(literal.status).toBe(400);
    expect(literal.body.code).toBe('webhook_url_invalid');
    // A name resolving to loopback passes the literal check; the address each socket would connect to is refused.
    const named = await server.call('POST', '/api/webhook/add', {
      key,
      body: { url: `http://localhost:${receiver.port}/never`, events: ['link.created'] },
    });
    expect(named.status, named.text).toBe(200);
    const before = receiver.connections();
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/ssrf' } });
    expect(await disabledReason(server, key, named.body.id)).toMatch(REFUSED);
    const delivery = await latestDelivery(server, key, named.body.id, (d) => d.status === 'failed');
    expect(delivery).toMatchObject({ responseCode: null, next: null });
    expect(delivery.attempts).toBeGreaterThan(1);
    expect(receiver.connections()).toBe(before);
    expect(receiver.received.filter((r) => r.path === '/never')).toEqual([]);
  });

  it('never follows a redirect, not even toward a private or metadata address', async () => {
    const { server, key } = await serverWith({ OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_GIVE_UP_MS: '400' });
    receiver.answer((_n, path) =>
      path === '/to-private'
        ? { status: 307, location: 'http://10.1.2.3/hook' }
        : path === '/to-metadata'
          ? { status: 308, location: 'http://169.254.169.254/latest/meta-data' }
          : { status: 200 },
    );
    for (const path of ['/to-private', '/to-metadata']) {
      const hook = await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}${path}`, events: ['qr.created'] } });
      expect(hook.status).toBe(200);
      await server.call('POST', '/api/qr/add', { key, body: { type: 'text', data: { text: path } } });
      // The first hop answered; the address it redirected to was never tried (issue 38: redirects are not followed).
      expect(await disabledReason(server, key, hook.body.id)).toMatch(/after failing for 400 ms: redirect \(HTTP 30[78]\) not followed$/);
      expect(receiver.received.filter((r) => r.path === path).length).toBeGreaterThan(1);
    }
    receiver.answer(() => ({ status: 200 }));
  });
});

describe('disabling', () => {
  it('disables a webhook failing for WEBHOOK_GIVE_UP_MS and says why', async () => {
    const { server, key } = await serverWith({ OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_GIVE_UP_MS: '600' });
    receiver.answer((_n, path) => ({ status: path === '/down' ? 500 : 200 }));
    const hook = (await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/down`, events: ['link.created'] } })).body;
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/down' } });
    const entry = async () => (await server.call('GET', '/api/webhooks', { key })).body.data.webhooks.find((w: { id: number }) => w.id === hook.id);
    await until(async () => (await entry()).active === false, 'disabled');
    expect(await entry()).toMatchObject({
      active: false,
      reason: expect.stringMatching(/^Disabled on \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} after failing for 600 ms: HTTP 500$/),
    });
    const delivery = await latestDelivery(server, key, hook.id, (d) => d.status === 'failed');
    expect(delivery).toMatchObject({ status: 'failed', responseCode: 500, next: null });
    expect(delivery.attempts).toBeGreaterThan(1);
    // Disabled, it hears nothing; re-enabled, it does again.
    const heard = receiver.received.filter((r) => r.path === '/down').length;
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/while-disabled' } });
    receiver.answer(() => ({ status: 200 }));
    expect((await server.call('PUT', `/api/webhook/${hook.id}/update`, { key, body: { active: true } })).status).toBe(200);
    expect(await entry()).toMatchObject({ active: true, reason: '' });
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/after' } });
    const after = await receiver.until(
      (all) => all.some((r) => r.path === '/down' && r.json?.data?.longurl === 'https://example.com/after'),
      'heard again',
    );
    expect(after.filter((r) => r.path === '/down' && r.json?.data?.longurl === 'https://example.com/while-disabled')).toEqual([]);
    expect(after.filter((r) => r.path === '/down').length).toBeGreaterThan(heard);
  });

  it('drops pending deliveries with the webhook', async () => {
    const { server, key } = await serverWith({ OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_GIVE_UP_MS: '400' });
    receiver.answer((_n, path) => ({ status: path === '/dropped' ? 500 : 200 }));
    const hook = (await server.call('POST', '/api/webhook/add', { key, body: { url: `${receiver.url}/dropped`, events: ['link.created'] } })).body;
    await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/dropped' } });
    await receiver.until((all) => all.some((r) => r.path === '/dropped'), 'a first attempt');
    await server.call('DELETE', `/api/webhook/${hook.id}/delete`, { key });
    const left = await server.ctx.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('webhook_id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    receiver.answer(() => ({ status: 200 }));
  });
});
