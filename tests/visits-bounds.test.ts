import { parse } from 'csv-parse/sync';
import {
  CompiledQuery,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { A, C, seriesSuite } from './helpers/series.js';
import type { Db } from '../src/db/connect.js';
import { isPostgres } from '../src/db/dialect.js';
import { fillOwners } from '../src/db/migrations/0020-visit-pack-owners.js';

const t = seriesSuite();
const { addLink, visitAt } = t;

/** Counts the statements that read or write the visit log, keeping the last: a measure of an answer's cost that is not a timing. */
class PackQueries implements KyselyPlugin {
  count = 0;
  last: RootOperationNode | undefined;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (JSON.stringify(node).includes('"visit_packs"')) {
      this.count++;
      this.last = node;
    }
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** Runs `call` with the server's database counting visit-log statements; answers how many it made. */
async function packQueries(call: () => Promise<unknown>, seen?: (last: RootOperationNode) => void): Promise<number> {
  const ctx = t.server.ctx as { db: Db };
  const plain = ctx.db;
  const counter = new PackQueries();
  ctx.db = plain.withPlugin(counter);
  try {
    await call();
  } finally {
    ctx.db = plain;
  }
  if (counter.last) seen?.(counter.last);
  return counter.count;
}

/** The database's plan for a statement the server made, as text: which table and index it reads. */
async function planOf(node: RootOperationNode): Promise<string> {
  const { db } = t.server.ctx;
  const query = db.getExecutor().compileQuery(node, { queryId: 'plan' });
  if (!isPostgres(db)) {
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return rows.map((r) => r.detail).join('\n');
  }
  await sql`analyze visit_packs`.execute(db);
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** One-visit packs of a link, written straight to the log (a batch per pack would be slow), `count` at a time. */
async function piledPacks(link: { id: number }, owner: number, at: string, count: number) {
  const pack = {
    target_kind: 'link' as const,
    target_id: link.id,
    owner,
    at: Date.parse(at) / 1000,
    n: 1,
    // One visit: second 0, then labels 0–5 at a byte each (src/clicks/visit-log.ts).
    labels: JSON.stringify(['Germany', 'direct', 'Chrome', 'Windows', 'desktop', 'default']),
    codes: Buffer.from([0, 0, 0, 0, 0, 1, 2, 3, 4, 5]),
  };
  for (let i = 0; i < count; i += 1000)
    await t.server.ctx.db
      .insertInto('visit_packs')
      .values(Array(Math.min(1000, count - i)).fill(pack))
      .execute();
}

async function ownerOf(link: { id: number }): Promise<number> {
  const row = await t.server.ctx.db.selectFrom('links').select('user_id').where('id', '=', link.id).executeTakeFirstOrThrow();
  return Number(row.user_id);
}

async function exported(path: string, key = t.key): Promise<Array<Record<string, string>>> {
  const res = await t.server.call('GET', path, { key });
  expect(res.status, res.text).toBe(200);
  return parse(res.text, { columns: true });
}

describe('account visit export (issue 38, item 2)', () => {
  it("reads only the account's own packs, however many the log holds of others", async () => {
    const theirs = await addLink(t.other);
    await piledPacks(theirs, await ownerOf(theirs), '2026-11-20T09:00:00Z', 10_000);
    const empty = (await t.server.user()).apiKey;
    // Before the index by owner, the export walked the whole log a window of 1000 ids at a time: 11 reads here.
    let read: RootOperationNode | undefined;
    const reads = await packQueries(
      async () => expect(await exported('/api/visits/export', empty)).toEqual([]),
      (last) => (read = last),
    );
    expect(reads).toBe(1);
    // That one read is a range of the index by owner, not a scan of the log.
    expect(await planOf(read!)).toMatch(/visit_packs_owner/);
    expect(await planOf(read!)).not.toMatch(/SCAN visit_packs\b|Seq Scan on visit_packs/);
    expect(await packQueries(async () => expect((await t.server.call('GET', '/api/visits', { key: empty })).body.data.visits).toEqual([]))).toBe(1);
  });

  it('gives the packs written before the index their owner on upgrade (migration 0020)', async () => {
    const key = (await t.server.user()).apiKey;
    const link = await addLink(key);
    const qr = await t.post('/api/qr/add', { type: 'link', data: 'https://example.com/qr', name: 'Old' }, key);
    await visitAt('2026-08-01T10:00:00Z', link.path, [A]);
    await visitAt('2026-08-01T10:00:00Z', `${new URL(qr.link).pathname}/scan`, [C]);
    await t.server.ctx.clicks.flush();
    const { db } = t.server.ctx;
    const before = await exported('/api/visits/export', key);
    expect(before.map((r) => r.type).sort()).toEqual(['link', 'qr']);
    await db
      .insertInto('visit_packs')
      .values({ ...bigPack({ id: 99_999_999 }, '2026-08-01T10:00:00Z', 1), owner: null })
      .execute(); // a gone link's
    await db.updateTable('visit_packs').set({ owner: null }).execute();
    expect(await exported('/api/visits/export', key)).toEqual([]);

    await fillOwners(db as never);
    expect(await exported('/api/visits/export', key)).toEqual(before);
    const orphan = await db.selectFrom('visit_packs').select('owner').where('target_id', '=', 99_999_999).execute();
    expect(orphan).toEqual([{ owner: null }]);
  });

  it('pages through many packs of one second in order, and keeps to the days asked', async () => {
    const mine = await addLink();
    await visitAt('2026-10-01T12:00:00Z', mine.path, [C]);
    await t.server.ctx.clicks.flush();
    await piledPacks(mine, await ownerOf(mine), '2026-10-02T08:00:00Z', 450); // more than a page (200), all at one second
    await visitAt('2026-10-03T12:00:00Z', mine.path, [A]);
    await t.server.ctx.clicks.flush();

    const all = await exported('/api/visits/export');
    expect(all.map((r) => r.date)).toEqual(['2026-10-03 12:00:00', ...Array(450).fill('2026-10-02 08:00:00'), '2026-10-01 12:00:00']);
    expect(all.every((r) => r.type === 'link' && r.id === String(mine.id))).toBe(true);
    expect((await exported('/api/visits/export?to=2026-10-01')).map((r) => r.date)).toEqual(['2026-10-01 12:00:00']);
    expect(await exported('/api/visits/export?from=2026-10-02&to=2026-10-02')).toHaveLength(450);
    expect((await exported('/api/visits/export?from=2026-10-03')).map((r) => r.country)).toEqual(['United States']);
    // A range the account has no visits in reads one page of the index, not the account's whole log.
    expect(await packQueries(async () => expect(await exported('/api/visits/export?from=2026-09-01&to=2026-09-30')).toEqual([]))).toBe(1);
  });
});

/** A pack of `n` visits a second apart from `at` (seconds 0…n-1), one label set: a log deeper than pages go, in one row. */
function bigPack(link: { id: number }, at: string, n: number) {
  const codes = Buffer.alloc(n * 10);
  for (let v = 0; v < n; v++) codes.writeUInt32LE(v, v * 4);
  for (let v = 0; v < n; v++) codes.set([0, 1, 2, 3, 4, 5], n * 4 + v * 6);
  const labels = JSON.stringify(['Germany', 'direct', 'Chrome', 'Windows', 'desktop', 'default']);
  return { target_kind: 'link' as const, target_id: link.id, at: Date.parse(at) / 1000, n, labels, codes };
}

/** A link whose log holds one real visit and then, newer, DEEP more in one pack chained on as the writer would. */
async function deepLink() {
  const link = await addLink();
  await visitAt('2026-09-01T00:00:00Z', link.path, [C]);
  await t.server.ctx.clicks.flush();
  const { db } = t.server.ctx;
  const big = await db
    .insertInto('visit_packs')
    .values(bigPack(link, '2026-09-02T00:00:00Z', DEEP))
    .returning('id')
    .executeTakeFirstOrThrow();
  // The summary row's trigger chains the replaced pack as the new one's `prev` (src/db/migrations/0007).
  await db
    .updateTable('click_summaries')
    .set((eb) => ({ visit_pack: Number(big.id), visit_count: eb('visit_count', '+', DEEP) }))
    .where('target_kind', '=', 'link')
    .where('target_id', '=', link.id)
    .execute();
  return link;
}

const DEEP = 10_500;
const visitsPath = (link: { id: number }, query: string) => `/api/url/${link.id}/visits?${query}`;

async function visitPage(link: { id: number }, query: string) {
  const res = await t.server.call('GET', visitsPath(link, query), { key: t.key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { result: number; currentpage: number; nextpage: number; before: string | null; visits: Array<{ date: string }> };
}

describe('deep pages of a visit log (issue 38, item 6)', () => {
  it('refuses a numbered page past 10,000 visits deep with visits_page_too_deep, and walks on with before=', async () => {
    const link = await deepLink();
    const deep = await t.server.call('GET', visitsPath(link, 'limit=1000&page=11'), { key: t.key });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ error: 1, code: 'visits_page_too_deep' });
    expect(deep.body.message).toContain('before=');

    const tenth = await visitPage(link, 'limit=1000&page=10');
    expect(tenth.visits).toHaveLength(1000);
    // Each page's cursor gives the next one: the same visits as the numbered pages, then on to the log's end.
    const walked: string[] = [];
    let cursor: string | null = (await visitPage(link, 'limit=1000')).before;
    let pages = 1;
    walked.push(...(await visitPage(link, 'limit=1000')).visits.map((v) => v.date));
    while (cursor !== null) {
      const page = await visitPage(link, `limit=1000&before=${cursor}`);
      expect(page).toMatchObject({ result: DEEP + 1, currentpage: 0, nextpage: 0 });
      walked.push(...page.visits.map((v) => v.date));
      if (++pages === 10) expect(page.visits).toEqual(tenth.visits);
      cursor = page.before;
    }
    expect(pages).toBe(11);
    expect(walked).toHaveLength(DEEP + 1);
    expect(walked.at(-1)).toBe('2026-09-01 00:00:00');
    expect(walked).toEqual([...walked].sort().reverse());
  }, 30_000);

  it('keeps a cursor on its place as visits arrive, and answers a cursor of another link with nothing', async () => {
    const link = await addLink();
    await visitAt('2026-09-05T10:00:00Z', link.path, [A, C]);
    await t.server.ctx.clicks.flush();
    const first = await visitPage(link, 'limit=1');
    expect(first.before).toMatch(/^\d+-\d+$/);
    await visitAt('2026-09-05T11:00:00Z', link.path, [C]);
    await t.server.ctx.clicks.flush();
    const next = await visitPage(link, `limit=5&before=${first.before}`);
    expect(next.visits.map((v) => v.date)).toEqual(['2026-09-05 10:00:00']);
    expect(next.before).toBeNull();
    expect(first.visits.map((v) => v.date)).toEqual(['2026-09-05 10:00:00']);

    const mine = await addLink();
    expect((await visitPage(mine, `before=${first.before}`)).visits).toEqual([]);
    for (const query of ['before=x', 'before=1', 'before=1-2-3', `page=2&before=${first.before}`]) {
      const res = await t.server.call('GET', visitsPath(link, query), { key: t.key });
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: 1, code: 'invalid_field' });
    }
  });

  it('documents before and the depth bound in the OpenAPI document', async () => {
    const { paths } = (await t.server.call('GET', '/api/openapi.json')).body;
    for (const path of ['/api/url/{id}/visits', '/api/qr/{id}/visits']) {
      const before = paths[path].get.parameters.find((p: { name: string }) => p.name === 'before');
      expect(before?.description, path).toContain('visits_page_too_deep');
      expect(paths[path].get.responses['200'].content['application/json'].schema.properties.data.properties.before).toBeDefined();
    }
  });
});
