import { describe, expect, it } from 'vitest';
import { pruneVisits, visitCutoff } from '../src/clicks/visit-log.js';
import { A, B, BOT, C, seriesClient, seriesSuite } from './helpers/series.js';
import { startServer, type TestServer } from './helpers/server.js';
import { UA } from './helpers/user-agents.js';
import { storedVisits, visitsOf } from './helpers/visits.js';

const t = seriesSuite();
const { addLink, addQr, visitAt } = t;

describe('GET /api/url/{id}/visits', () => {
  it('lists counted visits newest first, with labels only, and pages through them', async () => {
    const link = await addLink();
    await visitAt('2026-11-20T10:00:01Z', link.path, [A]);
    await visitAt('2026-11-20T10:00:02Z', link.path, [B, BOT]);
    await visitAt('2026-11-20T10:00:03Z', link.path, [C]);
    await t.server.ctx.clicks.flush();
    const url = `/api/url/${link.id}`;

    const all = await visitsOf(t.server, url, t.key);
    expect(all).toMatchObject({ result: 3, perpage: 15, currentpage: 1, nextpage: 0, maxpage: 1 });
    expect(all.visits.map((v) => v.date)).toEqual(['2026-11-20 10:00:03', '2026-11-20 10:00:02', '2026-11-20 10:00:01']);
    expect(all.visits[2]).toEqual({
      date: '2026-11-20 10:00:01',
      country: 'United States',
      referrer: 'direct',
      browser: 'Mobile Safari',
      os: 'iOS',
      device: 'mobile',
      rule: 'default',
    });
    expect(all.visits[1]).toMatchObject({ country: 'United Kingdom', browser: 'Chrome', os: 'Windows', device: 'desktop' });
    const totals = (await t.server.call('GET', url, { key: t.key })).body.data;
    expect(totals.clicks).toBe(all.result); // the bot is in neither

    const second = await visitsOf(t.server, url, t.key, '?limit=2&page=2');
    expect(second).toMatchObject({ result: 3, perpage: 2, currentpage: 2, nextpage: 0, maxpage: 2 });
    expect(second.visits).toEqual([all.visits[2]]);
    expect((await visitsOf(t.server, url, t.key, '?limit=2')).nextpage).toBe(2);
  });

  it('pages across the packs of many batches alike for every page size, and a deleted link takes its visits along', async () => {
    const [link, other] = [await addLink(), await addLink()];
    let second = 0;
    const at = () => `2026-11-19T09:00:${String(second++).padStart(2, '0')}Z`;
    for (const size of [1, 3, 2, 4, 1]) {
      // a batch each: a pack each, chained newest first
      for (let i = 0; i < size; i++) await visitAt(at(), link.path, [[A, B, C][i % 3]!]);
      await visitAt(at(), other.path, [A]);
      await t.server.ctx.clicks.flush();
    }
    const url = `/api/url/${link.id}`;
    const all = await visitsOf(t.server, url, t.key, '?limit=50');
    expect(all.result).toBe(11);
    const dates = all.visits.map((v) => v.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set(dates).size).toBe(11);
    for (const limit of [1, 2, 3, 4, 5]) {
      const paged = [];
      for (let page = 1; page <= Math.ceil(11 / limit); page++)
        paged.push(...(await visitsOf(t.server, url, t.key, `?limit=${limit}&page=${page}`)).visits);
      expect(paged, `limit ${limit}`).toEqual(all.visits);
    }

    expect((await t.server.call('DELETE', `/api/url/${link.id}/delete`, { key: t.key })).status).toBe(200);
    const left = (await storedVisits(t.server)).filter((v) => v.target_kind === 'link' && [link.id, other.id].includes(v.target_id));
    expect(left.map((v) => v.target_id)).toEqual([other.id, other.id, other.id, other.id, other.id]);
  });

  it('keeps no IP address, user agent or visitor hash', async () => {
    const link = await addLink();
    await visitAt('2026-11-21T08:00:00Z', link.path, [A, B]);
    await t.server.ctx.clicks.flush();
    const packs = await t.server.ctx.db
      .selectFrom('visit_packs')
      .selectAll()
      .where('target_kind', '=', 'link')
      .where('target_id', '=', link.id)
      .execute();
    expect(Object.keys(packs[0]!).sort()).toEqual(['at', 'codes', 'id', 'labels', 'n', 'owner', 'prev', 'target_id', 'target_kind']);
    // The labels, and per visit a second and six label indexes: nothing else is kept. The two visits share a
    // pack unless the flush timer fell between them (then one each): the same bytes either way.
    const perPack = packs.map((p) => JSON.parse(p.labels) as string[]);
    for (const own of perPack) expect(new Set(own).size).toBe(own.length); // a pack names each label once
    const labels = new Set(perPack.flat());
    expect(labels.size).toBe(10);
    expect([...labels].sort()).toEqual([
      'Chrome',
      'Mobile Safari',
      'United Kingdom',
      'United States',
      'Windows',
      'default',
      'desktop',
      'direct',
      'iOS',
      'mobile',
    ]);
    expect(packs.reduce((bytes, p) => bytes + p.codes.length, 0)).toBe(2 * 4 + 2 * 6); // at most 10 labels: one byte per index
    const stored = JSON.stringify(packs.map((p) => ({ ...p, codes: Buffer.from(p.codes).toString('latin1') })));
    for (const secret of [A.ip, B.ip, A.ua, B.ua]) expect(stored).not.toContain(secret);
  });

  it('records the target rule that chose the destination', async () => {
    const link = await addLink(t.key, {
      devicetarget: [{ device: 'iPhone', link: 'https://example.com/iphone' }],
      languagetarget: [{ language: 'fr', link: 'https://example.com/fr' }],
      geotarget: [{ location: 'Germany', link: 'https://example.com/de' }],
    });
    const visit = (ua: string, lang: string, ip: string, referer = '') =>
      t.server.visit(link.path, { headers: { 'user-agent': ua, 'accept-language': lang, 'x-forwarded-for': ip, referer } });
    await visit(UA.iphone, 'en', A.ip);
    await visit(UA.windowsChrome, 'fr-CA,en;q=0.5', A.ip);
    await visit(UA.windowsChrome, 'en', C.ip, 'https://news.example.org/a?b');
    await visit(UA.windowsChrome, 'en', B.ip);
    await visit(UA.ipad, 'en', B.ip);
    await t.server.ctx.clicks.flush();
    const { visits } = await visitsOf(t.server, `/api/url/${link.id}`, t.key);
    expect(visits.map((v) => [v.rule, v.device])).toEqual([
      ['default', 'tablet'],
      ['default', 'desktop'],
      ['geo:germany', 'desktop'],
      ['language:fr', 'desktop'],
      ['device:iphone', 'mobile'],
    ]);
    expect(visits[2]).toMatchObject({ country: 'Germany', referrer: 'news.example.org' });
  });

  it('lists the scans of a QR code', async () => {
    const qr = await addQr();
    await visitAt('2026-11-22T12:00:00Z', qr.path, [A, BOT]);
    await t.server.ctx.clicks.flush();
    const data = await visitsOf(t.server, `/api/qr/${qr.id}`, t.key);
    expect(data.visits).toEqual([expect.objectContaining({ date: '2026-11-22 12:00:00', rule: 'default', os: 'iOS' })]);
  });

  it("answers 404 for another account's link or QR code and 400 for a limit that is not a number", async () => {
    const link = await addLink();
    const qr = await addQr();
    for (const path of [`/api/url/${link.id}/visits`, `/api/qr/${qr.id}/visits`, '/api/url/99999999/visits']) {
      const res = await t.server.call('GET', path, { key: t.other });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const bad = await t.server.call('GET', `/api/url/${link.id}/visits?limit=many`, { key: t.key });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 1, code: 'invalid_field' });
  });

  it('answers the last possible page with no visits, not an error', async () => {
    const link = await addLink();
    await visitAt('2026-11-21T09:00:00Z', link.path, [A]);
    await t.server.ctx.clicks.flush();
    const far = await visitsOf(t.server, `/api/url/${link.id}`, t.key, '?limit=1000&page=2147483647');
    expect(far).toMatchObject({ result: 1, currentpage: 2147483647, visits: [] });
  });
});

describe('retention', () => {
  /** A server of the test's own, so the log's oldest ids are the test's visits (ids grow with time, fake clocks aside). */
  async function withServer(env: Record<string, string>, test: (server: TestServer, key: string) => Promise<void>) {
    const server = await startServer({ TRUST_PROXY: 'true', ...env });
    try {
      await test(server, (await server.user()).apiKey);
    } finally {
      await server.close();
    }
  }
  const addAndVisit = async (server: TestServer, key: string, visits: Array<[iso: string, visitors: (typeof A)[]]>) => {
    const link = (await server.call('POST', '/api/url/add', { key, body: { url: 'https://example.com/kept' } })).body;
    const client = seriesClient(
      () => server,
      () => key,
    );
    for (const [iso, visitors] of visits) {
      await client.visitAt(iso, new URL(link.shorturl).pathname, visitors);
      await server.ctx.clicks.flush(); // a batch each: batches are written in time order
    }
    return link.id as number;
  };

  it('prunes visits older than VISIT_LOG_DAYS in small batches, oldest first, and keeps the rest', async () => {
    await withServer({}, async (server, key) => {
      const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString();
      const id = await addAndVisit(server, key, [
        [day(40), [A, B, C]],
        [day(31), [A, B]],
        [day(29), [C]],
        [day(1), [A]],
      ]);
      const cutoff = visitCutoff(server.config.VISIT_LOG_DAYS);
      expect(await pruneVisits(server.ctx.db, cutoff, { batch: 2 })).toBe(5);
      const rows = await storedVisits(server);
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => Number(row.at) >= cutoff)).toBe(true);
      expect((await visitsOf(server, `/api/url/${id}`, key)).result).toBe(2);
      expect(await pruneVisits(server.ctx.db, cutoff, { batch: 2 })).toBe(0);
    });
  });

  it('stores nothing with VISIT_LOG_DAYS=0, while the totals still count', async () => {
    await withServer({ VISIT_LOG_DAYS: '0' }, async (server, key) => {
      const id = await addAndVisit(server, key, [[new Date().toISOString(), [A]]]);
      expect(await storedVisits(server)).toEqual([]);
      expect((await server.call('GET', `/api/url/${id}`, { key })).body.data.clicks).toBe(1);
      expect((await visitsOf(server, `/api/url/${id}`, key)).visits).toEqual([]);
    });
  });
});
