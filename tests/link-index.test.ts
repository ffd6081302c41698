import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * The resident link index (src/features/redirect/resolve/link-index.ts): `seeder` writes the links, then
 * `server` starts on the same database and indexes them in the background. Every write after that goes
 * through `server`, and what it serves must be what it would serve without the index.
 */
let seeder: TestServer;
let server: TestServer;
let key: string;
let logged = '';
const SEEDED = 40_000; // twenty pages of the fill (2000 rows each): long enough to write during it
const PAST = '2020-01-01 00:00:00';

async function addLink(on: TestServer, body: Record<string, unknown>): Promise<{ id: number; alias: string }> {
  const res = await on.call('POST', '/api/url/add', { key, body });
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id, alias: new URL(res.body.shorturl).pathname.slice(1) };
}

const update = (id: number, body: Record<string, unknown>) => server.call('PUT', `/api/url/${id}/update`, { key, body });

/** The answer to a visit as one comparable string: status and where it leads. */
async function served(alias: string, host?: string): Promise<string> {
  const res = await server.visit(`/${alias}`, { headers: host ? { host } : {} });
  return res.status === 302 ? `302 ${String(res.headers.location)}` : String(res.status);
}

async function filled(): Promise<void> {
  while (!logged.includes('link index filled')) await new Promise((resolve) => setTimeout(resolve, 20));
}

let seeded: Array<{ id: number; alias: string }>;
let firstId: number;

beforeAll(async () => {
  seeder = await startServer({ RATE_LIMIT_MAX: '1000000' });
  key = (await seeder.user()).apiKey;
  const domain = await seeder.call('POST', '/api/domain/add', { key, body: { domain: 'https://go.index.test' } });
  expect(domain.status, domain.text).toBe(200);
  firstId = (await addLink(seeder, { url: 'https://example.com/first', custom: 'idx-first' })).id;
  const owner = (await seeder.ctx.db.selectFrom('links').select('user_id').where('id', '=', firstId).executeTakeFirstOrThrow()).user_id;
  const now = '2026-01-01 00:00:00';
  const rows = Array.from({ length: SEEDED }, (_, i) => ({
    user_id: owner,
    alias: `idx${i}`,
    long_url: `https://example.com/seeded/${i}`,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await seeder.ctx.db
      .insertInto('links')
      .values(rows.slice(i, i + 1000))
      .execute();
  seeded = await seeder.ctx.db
    .selectFrom('links')
    .select(['id', 'alias'])
    .where('alias', 'like', 'idx%')
    .where('id', '<>', firstId)
    .orderBy('id')
    .execute();
  await addLink(seeder, { url: 'https://example.com/branded', custom: 'idx-branded', domain: 'go.index.test' });
  await addLink(seeder, { url: 'https://example.com/expires', custom: 'idx-expired', expiry: PAST });
  await addLink(seeder, { url: 'https://example.com/params', custom: 'idx-params', parameters: [{ name: 'utm', value: 'a b' }] });
  const log = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  server = await startServer({ DATABASE_URL: seeder.config.DATABASE_URL, RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'info' }, { log });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await seeder?.close();
});

describe('a write while the index fills', () => {
  it('is never served stale once the fill is done', async () => {
    // Writes one after another until the fill is done, each to a link of any page (ones the fill has read,
    // is reading, or has yet to read); every third one deletes.
    const written = new Map<number, string>();
    for (let n = 0; n < 40 || !logged.includes('link index filled'); n++) {
      const at = (n * 7919) % seeded.length;
      const link = seeded[at]!;
      if (written.get(at) === '404') continue;
      const gone = n % 3 === 2;
      const res = gone
        ? await server.call('DELETE', `/api/url/${link.id}/delete`, { key })
        : await update(link.id, { url: `https://example.com/changed/${n}` });
      expect(res.status, res.text).toBe(200);
      written.set(at, gone ? '404' : `302 https://example.com/changed/${n}`);
    }
    for (const [at, answer] of written) expect(await served(seeded[at]!.alias)).toBe(answer);
    const untouched = seeded.findIndex((_, at) => !written.has(at));
    expect(await served(seeded[untouched]!.alias)).toBe(`302 https://example.com/seeded/${untouched}`);
  });
});

describe('after the fill', () => {
  beforeAll(filled);

  it('serves indexed links from memory: a row changed behind the server’s back is not read', async () => {
    await server.ctx.db.updateTable('links').set({ long_url: 'https://example.com/behind' }).where('id', '=', firstId).execute();
    expect(await served('idx-first')).toBe('302 https://example.com/first');
    // …while a write through the service is served at once.
    expect((await update(firstId, { url: 'https://example.com/first-2' })).status).toBe(200);
    expect(await served('idx-first')).toBe('302 https://example.com/first-2');
  });

  it('serves parameters, branded hosts and expiry as the database path does', async () => {
    expect(await served('idx-params')).toBe('302 https://example.com/params?utm=a%20b');
    expect(await served('idx-branded', 'go.index.test')).toBe('302 https://example.com/branded');
    expect(await served('idx-branded')).toBe('404');
    expect(await served('idx-expired')).toBe('410');
  });

  it('follows updates, deletes and a link re-created at the same alias', async () => {
    const [a, b] = [seeded[100]!, seeded[101]!];
    expect((await update(a.id, { url: 'https://example.com/updated', expiry: PAST })).status).toBe(200);
    expect(await served(a.alias)).toBe('410');
    expect((await update(a.id, { url: 'https://example.com/updated', expiry: null })).status).toBe(200);
    expect(await served(a.alias)).toBe('302 https://example.com/updated');
    expect((await server.call('DELETE', `/api/url/${b.id}/delete`, { key })).status).toBe(200);
    expect(await served(b.alias)).toBe('404');
    await addLink(server, { url: 'https://example.com/recreated', custom: b.alias });
    expect(await served(b.alias)).toBe('302 https://example.com/recreated');
  });

  it('follows a link moved between domains, and one renamed', async () => {
    const link = seeded[200]!;
    expect((await update(link.id, { url: 'https://example.com/moved', domain: 'go.index.test' })).status).toBe(200);
    expect(await served(link.alias)).toBe('404');
    expect(await served(link.alias, 'go.index.test')).toBe('302 https://example.com/moved');
    expect((await update(link.id, { url: 'https://example.com/moved', domain: '', custom: 'idx-renamed' })).status).toBe(200);
    expect(await served(link.alias, 'go.index.test')).toBe('404');
    expect(await served('idx-renamed')).toBe('302 https://example.com/moved');
  });

  it('asks for a password, and shows pixels, once a link gets them', async () => {
    const [locked, tagged] = [seeded[300]!, seeded[301]!];
    expect((await update(locked.id, { url: 'https://example.com/locked', password: 'secret-word' })).status).toBe(200);
    const page = await server.visit(`/${locked.alias}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('password');
    const pixel = await server.call('POST', '/api/pixel/add', { key, body: { type: 'gtmpixel', name: 'Index', tag: 'GTM-INDEX' } });
    expect(pixel.status, pixel.text).toBe(200);
    expect((await update(tagged.id, { url: 'https://example.com/tagged', pixels: [pixel.body.id] })).status).toBe(200);
    const forward = await server.visit(`/${tagged.alias}`);
    expect(forward.status).toBe(200);
    expect(forward.text).toContain('GTM-INDEX');
  });

  it('serves a link created after the fill', async () => {
    const { alias } = await addLink(server, { url: 'https://example.com/late' });
    expect(await served(alias)).toBe('302 https://example.com/late');
  });
});

describe('the next pass', () => {
  let refreshing: TestServer;
  let passes = '';
  const passed = async (count: number) => {
    while (passes.split('link index passed').length - 1 < count) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  beforeAll(async () => {
    const log = new Writable({
      write(chunk, _encoding, done) {
        passes += String(chunk);
        done();
      },
    });
    // A TTL of one second: the index passes over the links every second, as the cache expires.
    refreshing = await startServer({ DATABASE_URL: seeder.config.DATABASE_URL, LINK_CACHE_TTL_S: '1', LOG_LEVEL: 'debug' }, { log });
    while (!passes.includes('link index filled')) await new Promise((resolve) => setTimeout(resolve, 20));
  }, 120_000);
  afterAll(() => refreshing?.close());

  it('indexes what changed without an invalidation it heard, and sweeps out what was deleted', async () => {
    const [gone, changed] = [seeded[500]!, seeded[501]!];
    await seeder.ctx.db.deleteFrom('links').where('id', '=', gone.id).execute();
    await seeder.ctx.db.updateTable('links').set({ long_url: 'https://example.com/changed-quietly' }).where('id', '=', changed.id).execute();
    // The first pass that starts after the writes has seen them; the second surely started after.
    await passed(passes.split('link index passed').length - 1 + 2);
    const visit = async (alias: string) => {
      const res = await refreshing.visit(`/${alias}`);
      return res.status === 302 ? String(res.headers.location) : String(res.status);
    };
    expect(await visit(gone.alias)).toBe('404');
    expect(await visit(changed.alias)).toBe('https://example.com/changed-quietly');
  });
});
