import { parse } from 'csv-parse/sync';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { A, C, seriesSuite } from './helpers/series.js';
import type { Db } from '../src/db/connect.js';

const t = seriesSuite();
const { addLink, visitAt } = t;

/** Counts the statements that read or write the visit log: a measure of an answer's cost that is not a timing. */
class PackQueries implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (JSON.stringify(node).includes('"visit_packs"')) this.count++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** Runs `call` with the server's database counting visit-log statements; answers how many it made. */
async function packQueries(call: () => Promise<unknown>): Promise<number> {
  const ctx = t.server.ctx as { db: Db };
  const plain = ctx.db;
  const counter = new PackQueries();
  ctx.db = plain.withPlugin(counter);
  try {
    await call();
  } finally {
    ctx.db = plain;
  }
  return counter.count;
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
    const reads = await packQueries(async () => expect(await exported('/api/visits/export', empty)).toEqual([]));
    expect(reads).toBe(1);
    expect(await packQueries(async () => expect((await t.server.call('GET', '/api/visits', { key: empty })).body.data.visits).toEqual([]))).toBe(1);
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
