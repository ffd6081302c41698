import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBioByAlias, findOverlayById, findSplashById } from '../src/features/custom-pages/repo.js';
import { cacheKeys } from '../src/lib/cache-keys.js';
import { createLink } from './helpers/grouping-fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let me: { id: number; apiKey: string };
let other: { id: number; apiKey: string };
const published: string[] = [];

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  me = await server.user();
  other = await server.user();
  server.ctx.invalidation.subscribe((key) => published.push(key));
});
afterAll(() => server.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const linkRow = (id: number) =>
  server.ctx.db.selectFrom('links').select(['type', 'splash_id', 'overlay_id']).where('id', '=', id).executeTakeFirstOrThrow();

describe('splash pages', () => {
  it('adds, lists with exact keys and error "0", updates and deletes', async () => {
    const user = await server.user();
    const added = await server.call('POST', '/api/splash/add', {
      key: user.apiKey,
      body: { name: 'Welcome', title: 'Hello', content: 'Some <b>text</b>', image: 'https://img.example.com/a.png' },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ error: 0, id: expect.any(Number) });
    const list = await server.call('GET', '/api/splash', { key: user.apiKey });
    expect(list.body).toEqual({
      error: '0',
      data: {
        result: 1,
        perpage: 15,
        currentpage: 1,
        nextpage: 0,
        maxpage: 1,
        splash: [{ id: added.body.id, name: 'Welcome', date: expect.stringMatching(TIMESTAMP) }],
      },
    });
    const upd = await server.call('PUT', `/api/splash/${added.body.id}/update`, { key: user.apiKey, body: { title: 'New title' } });
    expect(upd.body).toEqual({ error: 0, message: expect.any(String) });
    expect(await findSplashById(server.ctx.db, added.body.id)).toMatchObject({ name: 'Welcome', title: 'New title', content: 'Some <b>text</b>' });
    const del = await server.call('DELETE', `/api/splash/${added.body.id}/delete`, { key: user.apiKey });
    expect(del.body).toEqual({ error: 0, message: expect.any(String) });
    expect(await findSplashById(server.ctx.db, added.body.id)).toBeUndefined();
  });

  it('keeps a contact overlay e-mail address, checked as an address', async () => {
    const add = (email: unknown) => server.call('POST', '/api/overlay/add', { key: me.apiKey, body: { type: 'contact', name: 'Mail', email } });
    const made = await add(' mailto:Team.Sales+x@example.co.uk ');
    expect(made.status).toBe(200);
    expect(await findOverlayById(server.ctx.db, made.body.id)).toMatchObject({ email: 'Team.Sales+x@example.co.uk' });
    for (const email of ['not an address', 'a@b', 'a@example.com?cc=evil@example.com', 'a b@example.com', 5]) {
      const res = await add(email);
      expect(res.status, String(email)).toBe(400);
      expect(res.body.message, String(email)).toContain('email');
    }
    await server.call('PUT', `/api/overlay/${made.body.id}/update`, { key: me.apiKey, body: { email: '' } });
    expect(await findOverlayById(server.ctx.db, made.body.id)).toMatchObject({ email: '' });
  });

  it('refuses bad input with 400', async () => {
    for (const body of [
      {},
      { name: '  ' },
      { name: 'x', image: 'javascript:alert(1)' },
      { name: 'x', image: 'ftp://a.b/c' },
      { name: 3 },
      { name: 'x'.repeat(101) },
    ]) {
      const res = await server.call('POST', '/api/splash/add', { key: me.apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(1);
    }
  });

  it('refreshes links on update and turns them direct on delete', async () => {
    const added = await server.call('POST', '/api/splash/add', { key: me.apiKey, body: { name: 'Used' } });
    const id = added.body.id;
    const link = await createLink(server, me.apiKey, { type: String(id) });
    expect(await linkRow(link.id)).toEqual({ type: 'splash', splash_id: id, overlay_id: null });
    const key = cacheKeys.link(server.config.DEFAULT_HOST, link.alias);
    published.length = 0;
    await server.call('PUT', `/api/splash/${id}/update`, { key: me.apiKey, body: { content: 'changed' } });
    expect(published).toContain(key);
    published.length = 0;
    await server.call('DELETE', `/api/splash/${id}/delete`, { key: me.apiKey });
    expect(published).toContain(key);
    expect(await linkRow(link.id)).toEqual({ type: 'direct', splash_id: null, overlay_id: null });
  });
});

describe('overlays', () => {
  it('adds, lists under cta with exact keys, updates and deletes', async () => {
    const user = await server.user();
    const added = await server.call('POST', '/api/overlay/add', {
      key: user.apiKey,
      body: { type: 'contact', name: 'Reach us', message: 'Hi', button_text: 'Go', button_link: 'https://example.com/go' },
    });
    expect(added.body).toEqual({ error: 0, id: expect.any(Number) });
    const list = await server.call('GET', '/api/overlay', { key: user.apiKey });
    expect(list.body).toEqual({
      error: '0',
      data: {
        result: 1,
        perpage: 15,
        currentpage: 1,
        nextpage: 0,
        maxpage: 1,
        cta: [{ id: added.body.id, type: 'contact', name: 'Reach us', date: expect.stringMatching(TIMESTAMP) }],
      },
    });
    await server.call('PUT', `/api/overlay/${added.body.id}/update`, { key: user.apiKey, body: { type: 'message', button_link: '' } });
    expect(await findOverlayById(server.ctx.db, added.body.id)).toMatchObject({ type: 'message', name: 'Reach us', button_link: '', message: 'Hi' });
    expect((await server.call('DELETE', `/api/overlay/${added.body.id}/delete`, { key: user.apiKey })).body.error).toBe(0);
  });

  it('refuses bad input with 400', async () => {
    for (const body of [
      { name: 'x' },
      { type: 'popup', name: 'x' },
      { type: 'message' },
      { type: 'message', name: 'x', button_link: 'data:text/html,hi' },
    ]) {
      const res = await server.call('POST', '/api/overlay/add', { key: me.apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const made = await server.call('POST', '/api/overlay/add', { key: me.apiKey, body: { type: 'message', name: 'ok' } });
    const bad = await server.call('PUT', `/api/overlay/${made.body.id}/update`, { key: me.apiKey, body: { type: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('message or contact');
  });

  it('turns overlay links direct on delete and leaves other links alone', async () => {
    const added = await server.call('POST', '/api/overlay/add', { key: me.apiKey, body: { type: 'message', name: 'Used overlay' } });
    const link = await createLink(server, me.apiKey, { type: `overlay-${added.body.id}` });
    expect(await linkRow(link.id)).toEqual({ type: 'overlay', splash_id: null, overlay_id: added.body.id });
    const bystander = await createLink(server, me.apiKey, { type: 'frame' });
    await server.call('DELETE', `/api/overlay/${added.body.id}/delete`, { key: me.apiKey });
    expect(await linkRow(link.id)).toEqual({ type: 'direct', splash_id: null, overlay_id: null });
    expect((await linkRow(bystander.id)).type).toBe('frame');
  });
});

describe('bio pages', () => {
  it('adds with {error, id, url}, lists with exact keys, updates and deletes', async () => {
    const user = await server.user();
    const alias = `bio-${process.pid}-a`;
    const added = await server.call('POST', '/api/bio/add', {
      key: user.apiKey,
      body: {
        alias,
        name: 'My links',
        description: 'About me',
        avatar: 'https://img.example.com/me.png',
        links: [{ title: 'Site', url: 'https://example.com', extra: 1 }],
      },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ error: 0, id: expect.any(Number), url: `${server.config.BASE_URL}/${alias}` });
    const list = await server.call('GET', '/api/bio', { key: user.apiKey });
    expect(list.body).toEqual({
      error: '0',
      data: {
        result: 1,
        perpage: 15,
        currentpage: 1,
        nextpage: 0,
        maxpage: 1,
        bio: [{ id: added.body.id, alias, name: 'My links', url: added.body.url, date: expect.stringMatching(TIMESTAMP) }],
      },
    });
    const stored = await findBioByAlias(server.ctx.db, alias);
    expect(JSON.parse(stored!.links)).toEqual([{ title: 'Site', url: 'https://example.com' }]);

    published.length = 0;
    const renamed = `bio-${process.pid}-b`;
    const upd = await server.call('PUT', `/api/bio/${added.body.id}/update`, { key: user.apiKey, body: { alias: renamed, links: [] } });
    expect(upd.body).toEqual({ error: 0, message: expect.any(String) });
    expect(published).toEqual(expect.arrayContaining([alias, renamed].map((a) => cacheKeys.link(server.config.DEFAULT_HOST, a))));
    expect(await findBioByAlias(server.ctx.db, alias)).toBeUndefined();
    expect(await findBioByAlias(server.ctx.db, renamed)).toMatchObject({ name: 'My links', description: 'About me', links: '[]' });

    published.length = 0;
    expect((await server.call('DELETE', `/api/bio/${added.body.id}/delete`, { key: user.apiKey })).body.error).toBe(0);
    expect(published).toContain(cacheKeys.link(server.config.DEFAULT_HOST, renamed));
    expect(await findBioByAlias(server.ctx.db, renamed)).toBeUndefined();
  });

  it('refuses invalid and reserved aliases, bad URLs and too many links with 400', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ title: `t${i}`, url: 'https://example.com' }));
    for (const body of [
      { alias: 'ab', name: 'x' },
      { alias: 'has space', name: 'x' },
      { alias: 'api', name: 'x' },
      { alias: 'QR', name: 'x' },
      { alias: 'fine-alias', name: '' },
      { alias: 'fine-alias' },
      { alias: 'fine-alias', name: 'x', avatar: 'javascript:x' },
      { alias: 'fine-alias', name: 'x', links: [{ title: 't', url: 'javascript:alert(1)' }] },
      { alias: 'fine-alias', name: 'x', links: many },
      { alias: 'fine-alias', name: 'x', links: [{ url: 'https://example.com' }] },
    ]) {
      const res = await server.call('POST', '/api/bio/add', { key: me.apiKey, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe(1);
    }
  });

  it('refuses empty link rows with 400 naming the row, on add and update, and saves nothing', async () => {
    const alias = `rows-${process.pid}`;
    const links = [
      { title: 'Shop', url: 'https://shop.example.com' },
      { title: '  ', url: '' },
    ];
    const add = await server.call('POST', '/api/bio/add', { key: me.apiKey, body: { alias, name: 'Rows', links } });
    expect(add.status).toBe(400);
    expect(add.body).toEqual({ error: 1, message: 'links[1] is empty: give it a url, or leave the row out.', code: 'invalid_field' });
    expect(await findBioByAlias(server.ctx.db, alias)).toBeUndefined();

    const made = await server.call('POST', '/api/bio/add', { key: me.apiKey, body: { alias, name: 'Rows', links: [links[0]] } });
    expect(made.status).toBe(200);
    const titleOnly = await server.call('PUT', `/api/bio/${made.body.id}/update`, {
      key: me.apiKey,
      body: { links: [links[0], links[0], { title: 'Blog', url: ' ' }] },
    });
    expect(titleOnly.status).toBe(400);
    expect(titleOnly.body).toMatchObject({ error: 1, message: 'links[2].url is required.', code: 'invalid_field' });
    const stored = await server.call('GET', `/api/bio/${made.body.id}`, { key: me.apiKey });
    expect(stored.body.data.links).toEqual([links[0]]);
    // A link without a title is a link: the page shows its URL.
    const untitled = await server.call('PUT', `/api/bio/${made.body.id}/update`, {
      key: me.apiKey,
      body: { links: [{ title: '', url: 'https://a.example' }] },
    });
    expect(untitled.status).toBe(200);
  });

  it('refuses an alias taken by a bio page or a default-domain link with 409', async () => {
    const alias = `taken-${process.pid}`;
    expect((await server.call('POST', '/api/bio/add', { key: me.apiKey, body: { alias, name: 'first' } })).status).toBe(200);
    const link = await createLink(server, other.apiKey, { custom: `link-${process.pid}` });
    for (const taken of [alias, link.alias]) {
      const res = await server.call('POST', '/api/bio/add', { key: other.apiKey, body: { alias: taken, name: 'second' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 1, message: 'That alias is taken. Please choose another one.', code: 'alias_taken' });
    }
    const mine = await server.call('POST', '/api/bio/add', { key: me.apiKey, body: { alias: `other-${process.pid}`, name: 'x' } });
    const upd = await server.call('PUT', `/api/bio/${mine.body.id}/update`, { key: me.apiKey, body: { alias } });
    expect(upd.status).toBe(409);
    const same = await server.call('PUT', `/api/bio/${mine.body.id}/update`, { key: me.apiKey, body: { alias: `other-${process.pid}`, name: 'y' } });
    expect(same.status).toBe(200);
  });
});

describe('ownership', () => {
  it('answers 404 for another account page or an unknown id on every id-taking endpoint', async () => {
    const splash = await server.call('POST', '/api/splash/add', { key: other.apiKey, body: { name: 'theirs' } });
    const overlay = await server.call('POST', '/api/overlay/add', { key: other.apiKey, body: { type: 'message', name: 'theirs' } });
    const bio = await server.call('POST', '/api/bio/add', { key: other.apiKey, body: { alias: `theirs-${process.pid}`, name: 'theirs' } });
    for (const [kind, id] of [
      ['splash', splash.body.id],
      ['overlay', overlay.body.id],
      ['bio', bio.body.id],
      ['splash', 999999],
      ['overlay', 999999],
      ['bio', 999999],
    ]) {
      const upd = await server.call('PUT', `/api/${kind}/${id}/update`, { key: me.apiKey, body: { name: 'stolen' } });
      const del = await server.call('DELETE', `/api/${kind}/${id}/delete`, { key: me.apiKey });
      for (const res of [upd, del]) {
        expect(res.status, `${kind} ${id}`).toBe(404);
        expect(res.body).toEqual({ error: 1, message: expect.stringContaining('not found'), code: 'not_found' });
      }
    }
    expect((await findSplashById(server.ctx.db, splash.body.id))?.name).toBe('theirs');
    expect((await findOverlayById(server.ctx.db, overlay.body.id))?.name).toBe('theirs');
    for (const path of ['/api/splash', '/api/overlay', '/api/bio']) {
      const res = await server.call('GET', path, { key: me.apiKey, headers: {} });
      const items = Object.values(res.body.data).find(Array.isArray) as Array<{ name: string }>;
      expect(items.map((i) => i.name)).not.toContain('theirs');
    }
  });

  it('requires an API key', async () => {
    for (const path of ['/api/splash', '/api/overlay', '/api/bio']) expect((await server.call('GET', path)).status).toBe(401);
  });
});
