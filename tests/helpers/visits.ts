import { expect } from 'vitest';
import { unpack, type LoggedVisit } from '../../src/clicks/visit-log.js';
import type { TestServer } from './server.js';

export type VisitEntry = { date: string; country: string; referrer: string; browser: string; os: string; device: string; rule: string };

/** A page of a link's or QR code's visit log, checked to be a 200 list envelope. */
export async function visitsOf(server: TestServer, path: string, key: string, query = '') {
  const res = await server.call('GET', `${path}/visits${query}`, { key });
  expect(res.status, res.text).toBe(200);
  expect(res.body.error).toBe('0');
  return res.body.data as { result: number; perpage: number; currentpage: number; nextpage: number; maxpage: number; visits: VisitEntry[] };
}

/** Every visit the log stores, unpacked, newest first. */
export async function storedVisits(server: TestServer): Promise<LoggedVisit[]> {
  const packs = await server.ctx.db.selectFrom('visit_packs').selectAll().orderBy('id', 'desc').execute();
  return packs.flatMap(unpack);
}
