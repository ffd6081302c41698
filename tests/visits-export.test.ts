import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { A, B, BOT, C, seriesSuite } from './helpers/series.js';
import { visitsOf } from './helpers/visits.js';

const t = seriesSuite();
const { addLink, addQr, visitAt } = t;

const COLUMNS = ['date', 'type', 'id', 'country', 'referrer', 'browser', 'os', 'device', 'rule'];

/** Calls an export and parses its CSV back, checking the attachment headers. */
async function exported(path: string, key = t.key): Promise<Array<Record<string, string>>> {
  const res = await t.server.call('GET', path, { key });
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"$/);
  expect(res.text.split('\n')[0]).toBe(COLUMNS.join(','));
  return parse(res.text, { columns: true });
}

describe('visit exports', () => {
  it("exports a link's visits as the API lists them, with the header row and the link named", async () => {
    const link = await addLink();
    await visitAt('2026-11-10T09:00:00Z', link.path, [A, BOT]);
    await visitAt('2026-11-10T09:00:05Z', link.path, [B, C]);
    await t.server.ctx.clicks.flush();
    const rows = await exported(`/api/url/${link.id}/visits/export`);
    const { visits } = await visitsOf(t.server, `/api/url/${link.id}`, t.key);
    expect(rows).toHaveLength(3);
    expect(rows.map(({ type, id, ...visit }) => ({ ...visit, target: `${type}:${id}` }))).toEqual(
      visits.map((v) => ({ ...v, target: `link:${link.id}` })),
    );
  });

  it('carries the target rule, with a referrer host as parsed', async () => {
    const link = await addLink(t.key, { languagetarget: [{ language: 'fr', link: 'https://example.com/fr' }] });
    await t.server.visit(link.path, {
      headers: { 'user-agent': A.ua, 'x-forwarded-for': A.ip, 'accept-language': 'fr', referer: 'https://a.example/"x",y' },
    });
    await t.server.ctx.clicks.flush();
    const [row] = await exported(`/api/url/${link.id}/visits/export`);
    expect(row).toMatchObject({ type: 'link', id: String(link.id), rule: 'language:fr', referrer: 'a.example' });
  });

  it('writes a referrer a spreadsheet would run as a formula with a leading apostrophe, in both exports', async () => {
    const link = await addLink();
    await t.server.visit(link.path, { headers: { 'user-agent': A.ua, 'x-forwarded-for': A.ip, referer: 'http://=hyperlink("evil.test","x")/' } });
    await t.server.visit(link.path, { headers: { 'user-agent': B.ua, 'x-forwarded-for': B.ip, referer: 'http://-1+2/' } });
    await t.server.ctx.clicks.flush();
    const expected = ["'-1+2", '\'=hyperlink("evil.test","x")'];
    expect((await exported(`/api/url/${link.id}/visits/export`)).map((r) => r.referrer)).toEqual(expected);
    const account = (await exported('/api/visits/export')).filter((r) => r.type === 'link' && r.id === String(link.id));
    expect(account.map((r) => r.referrer)).toEqual(expected);
  });

  it("exports a QR code's scans, and an empty log as the header row alone", async () => {
    const qr = await addQr();
    expect(await exported(`/api/qr/${qr.id}/visits/export`)).toEqual([]);
    await visitAt('2026-11-11T10:00:00Z', qr.path, [C]);
    await t.server.ctx.clicks.flush();
    expect(await exported(`/api/qr/${qr.id}/visits/export`)).toEqual([
      expect.objectContaining({ type: 'qr', id: String(qr.id), date: '2026-11-11 10:00:00' }),
    ]);
  });

  it('exports the whole account across pages of the log, newest first, only its own, between two days', async () => {
    const mine = await addLink();
    const theirs = await addLink(t.other);
    const qr = await addQr();
    const many = Array.from({ length: 1200 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, ua: A.ua }));
    // A batch each, as time passes (the log is in the order batches are written).
    for (const [iso, path, visitors] of [
      ['2026-11-12T08:00:00Z', mine.path, many],
      ['2026-11-13T08:00:00Z', theirs.path, [A, B]],
      ['2026-11-14T08:00:00Z', qr.path, [B]],
    ] as const) {
      await visitAt(iso, path, [...visitors]);
      await t.server.ctx.clicks.flush();
    }
    const all = await exported('/api/visits/export');
    expect(all.some((r) => r.type === 'link' && r.id === String(theirs.id))).toBe(false);
    const ours = all.filter((r) => (r.type === 'link' && r.id === String(mine.id)) || (r.type === 'qr' && r.id === String(qr.id)));
    const dates = ours.map((r) => r.date);
    expect(dates[0]).toBe('2026-11-14 08:00:00');
    expect(dates.slice(1).map((d) => d.slice(0, 13))).toEqual(Array(1200).fill('2026-11-12 08')); // the clock runs on
    expect(dates).toEqual([...dates].sort().reverse());
    expect(await exported(`/api/url/${mine.id}/visits/export`)).toHaveLength(1200); // more than one keyset page

    const between = await exported('/api/visits/export?from=2026-11-13&to=2026-11-14');
    expect(between).toEqual([expect.objectContaining({ type: 'qr', id: String(qr.id), date: '2026-11-14 08:00:00' })]);
    expect(await exported('/api/visits/export', t.other)).toEqual([
      expect.objectContaining({ id: String(theirs.id) }),
      expect.objectContaining({ id: String(theirs.id) }),
    ]);
  });

  it("answers 404 for another account's link or QR code and 400 for a bad day", async () => {
    const link = await addLink();
    const qr = await addQr();
    for (const path of [`/api/url/${link.id}/visits/export`, `/api/qr/${qr.id}/visits/export`]) {
      const res = await t.server.call('GET', path, { key: t.other });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ error: 1, code: 'not_found' });
    }
    const bad = await t.server.call('GET', '/api/visits/export?from=yesterday', { key: t.key });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 1, code: 'invalid_field' });
  });
});

describe('OpenAPI', () => {
  it('documents the visit log and the CSV answers of the exports', async () => {
    const { paths } = (await t.server.call('GET', '/api/openapi.json')).body;
    for (const path of ['/api/url/{id}/visits', '/api/qr/{id}/visits'])
      expect(paths[path].get.responses['200'].content['application/json']).toBeDefined();
    for (const path of ['/api/url/{id}/visits/export', '/api/qr/{id}/visits/export', '/api/visits/export']) {
      expect(paths[path].get.responses['200'].content['text/csv'], path).toBeDefined();
      expect(paths[path].get.description, path).toContain('No IP address');
    }
  });
});
