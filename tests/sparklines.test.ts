import { describe, expect, it } from 'vitest';
import { A, B, BOT, C, seriesSuite } from './helpers/series.js';

const t = seriesSuite();
const { addLink, visitAt } = t;

const DAY_MS = 86_400_000;
/** Noon UTC `back` days before today, as an ISO timestamp. */
const daysAgo = (back: number) => new Date((Math.floor(Date.now() / DAY_MS) - back) * DAY_MS + 12 * 3_600_000).toISOString();

async function sparklines(query: string, key = t.key) {
  const res = await t.server.call('GET', `/api/urls/sparklines?${query}`, { key });
  return res;
}

describe('GET /api/urls/sparklines', () => {
  it('answers the last 7 days of clicks of many links in one request, counted through the real redirect', async () => {
    const one = await addLink();
    const two = await addLink();
    const quiet = await addLink();
    await visitAt(daysAgo(9), one.path, [A, B]); // before the 7 days: not in the line
    await visitAt(daysAgo(6), one.path, [A, B, BOT]); // the bot is not counted
    await visitAt(daysAgo(3), one.path, [C]);
    await visitAt(daysAgo(3), two.path, [A, A, A]);
    await visitAt(daysAgo(0), two.path, [B]);
    await t.server.ctx.clicks.flush();

    const res = await sparklines(`ids=${one.id},${two.id},${quiet.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.error).toBe(0);
    expect(res.body.data.to).toBe(new Date().toISOString().slice(0, 10));
    expect(res.body.data.from).toBe(daysAgo(6).slice(0, 10));
    expect(res.body.data.sparklines).toEqual({
      [one.id]: [2, 0, 0, 1, 0, 0, 0],
      [two.id]: [0, 0, 0, 3, 0, 0, 1],
      [quiet.id]: [0, 0, 0, 0, 0, 0, 0],
    });

    const longer = await sparklines(`ids=${one.id}&days=10`);
    expect(longer.body.data.sparklines[one.id]).toEqual([2, 0, 0, 2, 0, 0, 1, 0, 0, 0]);
  });

  it("leaves out another account's links and unknown ids without failing", async () => {
    const mine = await addLink();
    const theirs = await addLink(t.other);
    await visitAt(daysAgo(1), theirs.path, [A]);
    await t.server.ctx.clicks.flush();
    const res = await sparklines(`ids=${mine.id},${theirs.id},999999`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data.sparklines)).toEqual([String(mine.id)]);
    const theirView = await sparklines(`ids=${theirs.id}`, t.other);
    expect(theirView.body.data.sparklines[theirs.id]).toEqual([0, 0, 0, 0, 0, 1, 0]);
  });

  it('refuses bad ids, more than 100 ids and bad day counts with 400', async () => {
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    for (const query of ['ids=', 'ids=1,x', 'ids=-1', `ids=${many}`, 'ids=1&days=0', 'ids=1&days=91']) {
      const res = await sparklines(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ error: 1, code: 'invalid_field' });
    }
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1).join(',');
    expect((await sparklines(`ids=${hundred}`)).status).toBe(200);
  });
});
