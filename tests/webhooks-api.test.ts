import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUserByEmail } from '../src/features/account/service.js';
import { startServer, type TestServer } from './helpers/server.js';

/** The webhooks API of issue 28: shapes, the secret shown once, 400s for bad input and 404s for other accounts' ids. */
let server: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
  otherKey = (await server.user()).apiKey;
});
afterAll(() => server.close());

const add = (body: unknown, k = key) => server.call('POST', '/api/webhook/add', { key: k, body });

describe('webhooks API', () => {
  it('adds a webhook, shows its secret once and lists it', async () => {
    const res = await add({ url: 'https://hooks.example.com/in', events: ['link.created', 'qr.deleted'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      error: 0,
      id: expect.any(Number),
      url: 'https://hooks.example.com/in',
      events: ['link.created', 'qr.deleted'],
      secret: expect.stringMatching(/^whsec_[\w-]{20,}$/),
      keyid: expect.any(Number),
      via: 'default',
    });
    const listed = await server.call('GET', '/api/webhooks', { key });
    expect(listed.body.error).toBe('0');
    expect(Object.keys(listed.body.data).sort()).toEqual(['currentpage', 'maxpage', 'nextpage', 'perpage', 'result', 'webhooks']);
    const entry = listed.body.data.webhooks.find((w: { id: number }) => w.id === res.body.id);
    expect(entry).toEqual({
      id: res.body.id,
      url: 'https://hooks.example.com/in',
      events: ['link.created', 'qr.deleted'],
      active: true,
      reason: '',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      keyid: res.body.keyid,
      via: 'default',
    });
    expect(listed.text).not.toContain(res.body.secret);
  });

  it('updates, disables with a reason, re-enables and deletes', async () => {
    const { id } = (await add({ url: 'https://hooks.example.com/a', events: ['link.created'] })).body;
    const updated = await server.call('PUT', `/api/webhook/${id}/update`, {
      key,
      body: { url: 'https://hooks.example.com/b', events: ['link.deleted'] },
    });
    expect(updated.body).toEqual({ error: 0, message: 'Webhook updated' });
    await server.call('PUT', `/api/webhook/${id}/update`, { key, body: { active: false } });
    const entry = async () =>
      (await server.call('GET', '/api/webhooks?limit=100', { key })).body.data.webhooks.find((w: { id: number }) => w.id === id);
    expect(await entry()).toMatchObject({
      url: 'https://hooks.example.com/b',
      events: ['link.deleted'],
      active: false,
      reason: expect.stringContaining('Disabled on'),
    });
    await server.call('PUT', `/api/webhook/${id}/update`, { key, body: { active: true } });
    expect(await entry()).toMatchObject({ active: true, reason: '' });
    const deleted = await server.call('DELETE', `/api/webhook/${id}/delete`, { key });
    expect(deleted.body).toEqual({ error: 0, message: 'Webhook deleted' });
    expect(await entry()).toBeUndefined();
  });

  it('lists deliveries in the list envelope', async () => {
    const { id } = (await add({ url: 'https://hooks.example.com/c', events: ['link.created'] })).body;
    const res = await server.call('GET', `/api/webhook/${id}/deliveries`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: '0', data: { result: 0, perpage: 15, currentpage: 1, nextpage: 0, maxpage: 1, deliveries: [] } });
    const resend = await server.call('POST', `/api/webhook/${id}/deliveries/999999/resend`, { key });
    expect(resend.status).toBe(404);
  });

  it('answers 400 for bad input', async () => {
    for (const body of [
      { url: 'ftp://example.com/', events: ['link.created'] },
      { url: 'not a url', events: ['link.created'] },
      { url: 'http://10.0.0.5/hook', events: ['link.created'] },
      { url: 'http://169.254.169.254/latest', events: ['link.created'] },
      { url: 'http://127.0.0.1:9/hook', events: ['link.created'] },
      { url: 'https://example.com/', events: ['link.exploded'] },
      { url: 'https://example.com/', events: [] },
      { url: 'https://example.com/', events: 'link.created' },
      { url: 'https://example.com/' },
    ]) {
      const res = await add(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: 1, message: expect.any(String), code: expect.any(String) });
    }
    const { id } = (await add({ url: 'https://hooks.example.com/d', events: ['link.created'] })).body;
    expect((await server.call('PUT', `/api/webhook/${id}/update`, { key, body: {} })).status).toBe(400);
    expect((await server.call('PUT', `/api/webhook/${id}/update`, { key, body: { events: ['nope'] } })).body.code).toBe('webhook_events_invalid');
  });

  it("answers 404 for another account's webhook", async () => {
    const { id } = (await add({ url: 'https://hooks.example.com/e', events: ['link.created'] })).body;
    for (const [method, path, body] of [
      ['PUT', `/api/webhook/${id}/update`, { active: false }],
      ['DELETE', `/api/webhook/${id}/delete`, undefined],
      ['GET', `/api/webhook/${id}/deliveries`, undefined],
      ['POST', `/api/webhook/${id}/deliveries/1/resend`, undefined],
    ] as const) {
      const res = await server.call(method, path, { key: otherKey, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await server.call('GET', '/api/webhooks', { key: otherKey })).body.data.webhooks).toEqual([]);
  });

  it('goes with its account, deliveries included', async () => {
    const user = await server.user();
    // localhost passes the literal check; the outbound client refuses it when sending, so nothing leaves the machine.
    const { id } = (await add({ url: 'http://localhost:9/gone', events: ['link.created'] }, user.apiKey)).body;
    expect((await server.call('POST', '/api/url/add', { key: user.apiKey, body: { url: 'https://example.com/x' } })).status).toBe(200);
    const count = async (table: 'webhooks' | 'webhook_deliveries', column: 'id' | 'webhook_id') =>
      Number(
        (
          await server.ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(column, '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('webhook_deliveries', 'webhook_id')).toBe(1);
    await deleteUserByEmail(server.ctx, user.email);
    expect(await count('webhooks', 'id')).toBe(0);
    expect(await count('webhook_deliveries', 'webhook_id')).toBe(0);
  });
});
