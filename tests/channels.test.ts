import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTimestamp } from '../src/lib/time.js';
import { createLink } from './helpers/grouping-fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let me: { id: number; apiKey: string };
let other: { id: number; apiKey: string };
let base: string;
let counter = 0;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  me = await server.user();
  other = await server.user();
  base = server.config.BASE_URL;
});
afterAll(() => server.close());

const makeLink = (owner: { apiKey: string }, title?: string) => createLink(server, owner.apiKey, title === undefined ? {} : { title });

async function makeQr(owner: { apiKey: string }) {
  const name = `QR ${process.pid}x${++counter}`;
  const res = await server.call('POST', '/api/qr/add', { key: owner.apiKey, body: { type: 'text', data: 'hello', name } });
  expect(res.status).toBe(200);
  return { id: res.body.id as number, link: res.body.link as string, name };
}

async function makeBio(owner: { apiKey: string }) {
  const alias = `chbio${process.pid}x${++counter}`;
  const res = await server.call('POST', '/api/bio/add', { key: owner.apiKey, body: { alias, name: `Bio ${alias}` } });
  expect(res.status).toBe(200);
  return { id: res.body.id as number, alias, name: `Bio ${alias}` };
}

const addChannel = (key: string, body: unknown) => server.call('POST', '/api/channel/add', { key, body });
const assign = (key: string, channelId: number, type: string, itemId: number) =>
  server.call('POST', `/api/channel/${channelId}/assign/${type}/${itemId}`, { key, rawBody: '', headers: { 'content-type': 'application/json' } });
const items = (key: string, channelId: number, query = '') => server.call('GET', `/api/channel/${channelId}${query}`, { key });

describe('channel add and list', () => {
  it('answers the exact shape with defaults', async () => {
    const full = await addChannel(me.apiKey, { name: 'Work', description: 'Work links', color: '#1A2b3C', starred: true });
    expect(full.status).toBe(200);
    expect(Object.keys(full.body).sort()).toEqual(['color', 'description', 'error', 'id', 'name', 'starred']);
    expect(full.body).toEqual({ error: 0, id: expect.any(Number), name: 'Work', description: 'Work links', color: '#1A2b3C', starred: true });
    const bare = await addChannel(me.apiKey, { name: 'Bare' });
    expect(bare.body).toEqual({ error: 0, id: expect.any(Number), name: 'Bare', description: '', color: '', starred: false });
  });

  it('lists only the caller channels with exact entry keys and error "0"', async () => {
    const user = await server.user();
    const made = await addChannel(user.apiKey, { name: 'Only', color: '#000000' });
    await addChannel(other.apiKey, { name: 'Not mine' });
    const res = await server.call('GET', '/api/channels', { key: user.apiKey });
    expect(res.body).toEqual({
      error: '0',
      data: {
        result: 1,
        perpage: 15,
        currentpage: 1,
        nextpage: 0,
        maxpage: 1,
        channels: [{ id: made.body.id, name: 'Only', description: '', color: '#000000', starred: false }],
      },
    });
  });

  it('lists starred channels first, then the newest', async () => {
    const user = await server.user();
    const names = ['Old starred', 'Plain', 'New starred', 'Newest'];
    for (const name of names) await addChannel(user.apiKey, { name, starred: name.endsWith('starred') });
    const res = await server.call('GET', '/api/channels', { key: user.apiKey });
    expect(res.body.data.channels.map((c: { name: string }) => c.name)).toEqual(['New starred', 'Old starred', 'Newest', 'Plain']);
  });

  it('refuses bad input with 400 and a taken name with 409', async () => {
    for (const [body, word] of [
      [{}, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: 'x', color: 'red' }, 'color'],
      [{ name: 'x', color: '#12345' }, 'color'],
      [{ name: 'x', color: '#GGGGGG' }, 'color'],
      [{ name: 'x', starred: 'yes' }, 'starred'],
      [{ name: 'x', description: 'd'.repeat(1001) }, 'description'],
    ] as const) {
      const res = await addChannel(me.apiKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        error: 1,
        message: expect.stringContaining(word),
        code: expect.stringMatching(/_invalid$|^invalid_field$|^name_required$/),
      });
    }
    await addChannel(me.apiKey, { name: 'Dup' });
    const dup = await addChannel(me.apiKey, { name: 'Dup' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 1, message: 'You already have a channel with this name.', code: 'channel_name_taken' });
    expect((await addChannel(other.apiKey, { name: 'Dup' })).status).toBe(200);
  });
});

describe('channel update', () => {
  it('changes only the fields sent and answers message plus the channel', async () => {
    const made = await addChannel(me.apiKey, { name: 'Before', description: 'keep me', color: '#FF0000' });
    const id = made.body.id;
    const res = await server.call('PUT', `/api/channel/${id}/update`, { key: me.apiKey, body: { name: 'After', starred: true } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['color', 'description', 'error', 'id', 'message', 'name', 'starred']);
    expect(res.body).toEqual({ error: 0, message: expect.any(String), id, name: 'After', description: 'keep me', color: '#FF0000', starred: true });
    const cleared = await server.call('PUT', `/api/channel/${id}/update`, { key: me.apiKey, body: { color: '' } });
    expect(cleared.body).toMatchObject({ name: 'After', color: '' });
    const same = await server.call('PUT', `/api/channel/${id}/update`, { key: me.apiKey, body: {} });
    expect(same.body).toMatchObject({ error: 0, name: 'After' });
  });

  it('refuses bad colors, blank names and taken names', async () => {
    await addChannel(me.apiKey, { name: 'Taken channel' });
    const made = await addChannel(me.apiKey, { name: 'Free channel' });
    const path = `/api/channel/${made.body.id}/update`;
    expect((await server.call('PUT', path, { key: me.apiKey, body: { color: '#12' } })).status).toBe(400);
    expect((await server.call('PUT', path, { key: me.apiKey, body: { name: '' } })).status).toBe(400);
    const taken = await server.call('PUT', path, { key: me.apiKey, body: { name: 'Taken channel' } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('You already have a channel with this name.');
    expect((await server.call('PUT', path, { key: me.apiKey, body: { name: 'Free channel' } })).status).toBe(200);
  });
});

describe('channel items', () => {
  it('assigns links, bio pages and QR codes and lists them with exact keys and error "0"', async () => {
    const channel = await addChannel(me.apiKey, { name: 'Mixed' });
    const id = channel.body.id;
    const titled = await makeLink(me, 'A title');
    const plain = await makeLink(me);
    const bio = await makeBio(me);
    const qr = await makeQr(me);
    for (const [type, itemId] of [
      ['links', titled.id],
      ['links', plain.id],
      ['bio', bio.id],
      ['qr', qr.id],
    ] as const) {
      const res = await assign(me.apiKey, id, type, itemId);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    }
    const res = await items(me.apiKey, id);
    expect(res.status).toBe(200);
    expect(res.body.error).toBe('0');
    expect(res.body.data).toMatchObject({ result: 4, perpage: 15, currentpage: 1, nextpage: 0, maxpage: 1 });
    const date = nowTimestamp().slice(0, 10);
    expect(Object.keys(res.body.data.items[0]).sort()).toEqual(['date', 'id', 'link', 'preview', 'title', 'type']);
    expect(res.body.data.items).toEqual(
      expect.arrayContaining([
        { type: 'links', id: titled.id, title: 'A title', preview: titled.longUrl, link: `${base}/${titled.alias}`, date },
        { type: 'links', id: plain.id, title: plain.longUrl, preview: plain.longUrl, link: `${base}/${plain.alias}`, date },
        { type: 'bio', id: bio.id, title: bio.name, preview: `${base}/${bio.alias}`, link: `${base}/${bio.alias}`, date },
        { type: 'qr', id: qr.id, title: qr.name, preview: qr.link, link: qr.link, date },
      ]),
    );
    const paged = await items(me.apiKey, id, '?limit=3&page=2');
    expect(paged.body.data).toMatchObject({ result: 4, perpage: 3, currentpage: 2, nextpage: 0, maxpage: 2 });
    expect(paged.body.data.items).toHaveLength(1);
  });

  it('is idempotent and lets one item sit in several channels', async () => {
    const a = await addChannel(me.apiKey, { name: 'Idem A' });
    const b = await addChannel(me.apiKey, { name: 'Idem B' });
    const link = await makeLink(me);
    expect((await assign(me.apiKey, a.body.id, 'links', link.id)).status).toBe(200);
    expect((await assign(me.apiKey, a.body.id, 'links', link.id)).status).toBe(200);
    expect((await assign(me.apiKey, b.body.id, 'links', link.id)).status).toBe(200);
    expect((await items(me.apiKey, a.body.id)).body.data.result).toBe(1);
    expect((await items(me.apiKey, b.body.id)).body.data.items.map((i: any) => i.id)).toEqual([link.id]);
  });

  it('refuses an unknown type with 400', async () => {
    const channel = await addChannel(me.apiKey, { name: 'Typed' });
    const link = await makeLink(me);
    for (const type of ['link', 'campaigns', 'LINKS']) {
      const res = await assign(me.apiKey, channel.body.id, type, link.id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 1, message: 'The item type must be one of links, bio or qr.', code: 'item_type_invalid' });
    }
    expect((await assign(me.apiKey, channel.body.id, 'links', 0)).status).toBe(400);
  });

  it('removes one item from a channel and keeps the item and its other channels', async () => {
    const a = await addChannel(me.apiKey, { name: 'Remove A' });
    const b = await addChannel(me.apiKey, { name: 'Remove B' });
    const bio = await makeBio(me);
    const qr = await makeQr(me);
    for (const [channel, type, itemId] of [
      [a, 'bio', bio.id],
      [a, 'qr', qr.id],
      [b, 'bio', bio.id],
    ] as const)
      await assign(me.apiKey, channel.body.id, type, itemId);
    const remove = () => server.call('DELETE', `/api/channel/${a.body.id}/assign/bio/${bio.id}`, { key: me.apiKey });
    const res = await remove();
    expect(res.body).toEqual({ error: 0, message: 'Item has been successfully removed from the channel.' });
    expect((await remove()).status).toBe(200);
    expect((await items(me.apiKey, a.body.id)).body.data.items.map((i: { type: string }) => i.type)).toEqual(['qr']);
    expect((await items(me.apiKey, b.body.id)).body.data.result).toBe(1);
    const wrongType = await server.call('DELETE', `/api/channel/${a.body.id}/assign/page/${bio.id}`, { key: me.apiKey });
    expect(wrongType.body.code).toBe('item_type_invalid');
  });

  it('leaves out items deleted since they were assigned', async () => {
    const channel = await addChannel(me.apiKey, { name: 'Gone items' });
    const link = await makeLink(me);
    const bio = await makeBio(me);
    await assign(me.apiKey, channel.body.id, 'links', link.id);
    await assign(me.apiKey, channel.body.id, 'bio', bio.id);
    const qr = await makeQr(me);
    await assign(me.apiKey, channel.body.id, 'qr', qr.id);
    await server.call('DELETE', `/api/url/${link.id}/delete`, { key: me.apiKey });
    await server.call('DELETE', `/api/bio/${bio.id}/delete`, { key: me.apiKey });
    // Whether or not the deleting feature clears channel rows, the item must not show.
    await server.call('DELETE', `/api/qr/${qr.id}/delete`, { key: me.apiKey });
    const res = await items(me.apiKey, channel.body.id);
    expect(res.body.data).toMatchObject({ result: 0, items: [] });
  });
});

describe('channel delete', () => {
  it('unassigns every item and keeps the items', async () => {
    const channel = await addChannel(me.apiKey, { name: 'Doomed' });
    const link = await makeLink(me);
    const qr = await makeQr(me);
    await assign(me.apiKey, channel.body.id, 'links', link.id);
    await assign(me.apiKey, channel.body.id, 'qr', qr.id);
    const res = await server.call('DELETE', `/api/channel/${channel.body.id}/delete`, { key: me.apiKey });
    expect(res.body).toEqual({ error: 0, message: expect.any(String) });
    const rows = await server.ctx.db.selectFrom('channel_items').selectAll().where('channel_id', '=', channel.body.id).execute();
    expect(rows).toEqual([]);
    expect((await server.call('GET', `/api/url/${link.id}`, { key: me.apiKey })).status).toBe(200);
    expect((await server.call('GET', `/api/qr/${qr.id}`, { key: me.apiKey })).status).toBe(200);
    expect((await items(me.apiKey, channel.body.id)).status).toBe(404);
    expect((await server.call('DELETE', `/api/channel/${channel.body.id}/delete`, { key: me.apiKey })).status).toBe(404);
  });
});

describe('ownership', () => {
  it('answers 404 for another account channel on read, update, delete and assign', async () => {
    const theirs = await addChannel(other.apiKey, { name: 'Theirs' });
    const id = theirs.body.id;
    const attempts = [
      items(me.apiKey, id),
      server.call('PUT', `/api/channel/${id}/update`, { key: me.apiKey, body: { name: 'Stolen' } }),
      server.call('DELETE', `/api/channel/${id}/delete`, { key: me.apiKey }),
      items(me.apiKey, 999999),
      server.call('PUT', '/api/channel/999999/update', { key: me.apiKey, body: {} }),
      server.call('DELETE', '/api/channel/999999/delete', { key: me.apiKey }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 1, message: 'Channel not found.', code: 'not_found' });
    }
    const still = await server.call('GET', '/api/channels?limit=100', { key: other.apiKey });
    expect(still.body.data.channels.find((c: any) => c.id === id).name).toBe('Theirs');
  });

  it('answers 404 for every foreign combination of channel and item type', async () => {
    const mine = (await addChannel(me.apiKey, { name: 'Mine to assign' })).body.id;
    const theirs = (await addChannel(other.apiKey, { name: 'Theirs to assign' })).body.id;
    const own = { links: (await makeLink(me)).id, bio: (await makeBio(me)).id, qr: (await makeQr(me)).id };
    const foreign = { links: (await makeLink(other)).id, bio: (await makeBio(other)).id, qr: (await makeQr(other)).id };
    for (const type of ['links', 'bio', 'qr'] as const) {
      for (const [channel, item, label] of [
        [theirs, own[type], 'foreign channel + own item'],
        [mine, foreign[type], 'own channel + foreign item'],
        [theirs, foreign[type], 'foreign channel + foreign item'],
        [999999, own[type], 'unknown channel'],
        [mine, 999999, 'unknown item'],
      ] as const) {
        const res = await assign(me.apiKey, channel, type, item);
        expect(res.status, `${type}: ${label}`).toBe(404);
        expect(res.body).toEqual({ error: 1, message: expect.stringContaining('not found'), code: 'not_found' });
      }
    }
    expect((await items(me.apiKey, mine)).body.data.result).toBe(0);
    expect((await items(other.apiKey, theirs)).body.data.result).toBe(0);
  });
});
