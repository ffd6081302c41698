import { describe, expect, it } from 'vitest';
import { A, B, BOT, C, seriesSuite } from './helpers/series.js';
import type { VisitEntry } from './helpers/visits.js';

const t = seriesSuite();
const { addLink, visitAt } = t;

type Latest = VisitEntry & { type: 'link' | 'qr'; id: number; name: string; shorturl?: string };

async function latest(key: string, query = ''): Promise<Latest[]> {
  const res = await t.server.call('GET', `/api/visits${query}`, { key });
  expect(res.status, res.text).toBe(200);
  expect(res.body.error).toBe(0);
  return res.body.data.visits;
}

describe('GET /api/visits', () => {
  it("lists the account's latest visits across its links and QR codes, newest first, naming each, and no one else's", async () => {
    const titled = await addLink(t.key, { title: 'Spring sale' });
    const bare = await addLink();
    const theirs = await addLink(t.other);
    const qr = (await t.post('/api/qr/add', { type: 'link', data: 'https://example.com/qr', name: 'Poster' })) as { id: number; link: string };
    // A batch each, as time passes; the other account's visits come in between.
    for (const [iso, path, visitors] of [
      ['2026-11-20T10:00:00Z', titled.path, [A, BOT]],
      ['2026-11-20T10:00:05Z', theirs.path, [A, B]],
      ['2026-11-20T10:00:10Z', `${new URL(qr.link).pathname}/scan`, [C]],
      ['2026-11-20T10:00:15Z', bare.path, [B]],
    ] as const) {
      await visitAt(iso, path, [...visitors]);
      await t.server.ctx.clicks.flush();
    }

    const visits = await latest(t.key);
    expect(visits.map((v) => [v.type, v.id])).toEqual([
      ['link', bare.id],
      ['qr', qr.id],
      ['link', titled.id],
    ]);
    expect(visits[0]).toEqual({
      date: '2026-11-20 10:00:15',
      type: 'link',
      id: bare.id,
      name: `${t.server.config.BASE_URL}${bare.path}`,
      shorturl: `${t.server.config.BASE_URL}${bare.path}`,
      country: 'United Kingdom',
      referrer: 'direct',
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
      rule: 'default',
    });
    expect(visits[1]).toEqual(expect.objectContaining({ date: '2026-11-20 10:00:10', name: 'Poster' }));
    expect(visits[1]).not.toHaveProperty('shorturl');
    expect(visits[2]).toMatchObject({ name: 'Spring sale', shorturl: `${t.server.config.BASE_URL}${titled.path}`, country: 'United States' });

    expect((await latest(t.other)).map((v) => [v.id, v.date])).toEqual([
      [theirs.id, '2026-11-20 10:00:05'],
      [theirs.id, '2026-11-20 10:00:05'],
    ]);
    expect(await latest((await t.server.user()).apiKey)).toEqual([]);
  });

  it('honours limit, default 15, across batches, and leaves out a deleted link', async () => {
    const link = await addLink(t.key, { title: 'Many' });
    const many = Array.from({ length: 20 }, (_, i) => ({ ip: `10.1.0.${i}`, ua: A.ua }));
    await visitAt('2026-11-21T09:00:00Z', link.path, many.slice(0, 12));
    await t.server.ctx.clicks.flush();
    await visitAt('2026-11-21T09:01:00Z', link.path, many.slice(12));
    await t.server.ctx.clicks.flush();

    const fifteen = await latest(t.key);
    expect(fifteen).toHaveLength(15);
    expect(fifteen.every((v) => v.id === link.id)).toBe(true);
    const dates = fifteen.map((v) => v.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates.filter((d) => d.startsWith('2026-11-21 09:01'))).toHaveLength(8);
    expect(await latest(t.key, '?limit=3')).toEqual(fifteen.slice(0, 3));
    expect(await latest(t.key, '?limit=100')).toHaveLength(20 + 3); // and the first test's three

    expect((await t.server.call('DELETE', `/api/url/${link.id}/delete`, { key: t.key })).status).toBe(200);
    expect((await latest(t.key, '?limit=100')).map((v) => v.id)).not.toContain(link.id);
  });

  it('answers 400 invalid_field for a limit outside 1 to 100 or not a whole number', async () => {
    for (const limit of ['0', '101', '-1', 'many', '1.5']) {
      const res = await t.server.call('GET', `/api/visits?limit=${limit}`, { key: t.key });
      expect(res.status, limit).toBe(400);
      expect(res.body).toMatchObject({ error: 1, code: 'invalid_field' });
    }
  });

  it("finds the account's latest visits under any number of other accounts' packs", async () => {
    const mine = await addLink();
    const theirs = await addLink(t.other);
    await visitAt('2026-11-22T08:00:00Z', mine.path, [C]);
    await t.server.ctx.clicks.flush();
    expect((await latest(t.key, '?limit=1'))[0]).toMatchObject({ id: mine.id, date: '2026-11-22 08:00:00' });

    // The other account's packs pile up on top (written straight to the log: a batch per pack would be slow).
    const owner = await t.server.ctx.db.selectFrom('links').select('user_id').where('id', '=', theirs.id).executeTakeFirstOrThrow();
    const pack = {
      target_kind: 'link' as const,
      target_id: theirs.id,
      owner: Number(owner.user_id),
      at: Date.parse('2026-11-22T09:00:00Z') / 1000,
      n: 1,
      // One visit: second 0, then labels 0–5 at a byte each (src/clicks/visit-log.ts).
      labels: JSON.stringify(['Germany', 'direct', 'Chrome', 'Windows', 'desktop', 'default']),
      codes: Buffer.from([0, 0, 0, 0, 0, 1, 2, 3, 4, 5]),
    };
    // More than the 20,000 the account's latest visits were once looked for in (the log had no index by account).
    for (let i = 0; i < 21_000; i += 1000) await t.server.ctx.db.insertInto('visit_packs').values(Array(1000).fill(pack)).execute();

    expect((await latest(t.key, '?limit=1'))[0]).toMatchObject({ id: mine.id, date: '2026-11-22 08:00:00' });
    expect(await latest(t.other, '?limit=100')).toHaveLength(100);
  }, 60_000);
});
