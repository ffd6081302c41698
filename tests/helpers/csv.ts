import { expect } from 'vitest';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { TestServer } from './server.js';

/** CSV text as records keyed by the header row. */
export const csvRecords = (text: string): Array<Record<string, string>> => parse(text, { columns: true, bom: true });

/** Records as CSV text with a header row (the columns of the first record unless given). */
export const toCsv = (rows: Array<Record<string, unknown>>, columns?: string[]) =>
  stringify(rows, { header: true, columns: columns ?? Object.keys(rows[0] ?? {}) });

/** GET /api/urls/export as records, after checking it is a CSV download. */
export async function exportedLinks(server: TestServer, key: string): Promise<Array<Record<string, string>>> {
  const res = await server.call('GET', '/api/urls/export', { key });
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  expect(res.headers['content-disposition']).toBe('attachment; filename="links.csv"');
  return csvRecords(res.text);
}

export interface ImportJob {
  id: number;
  status: string;
  format: string;
  total: number | null;
  done: number;
  failed: number;
  errors: Array<{ row: number; code: string; message: string }>;
  message: string;
}

/** Posts a CSV to POST /api/urls/import and follows the job until it ends. */
export async function importCsv(server: TestServer, key: string, csv: string, query = ''): Promise<ImportJob> {
  const res = await server.call('POST', `/api/urls/import${query}`, { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.status).toBe('running');
  return waitForJob(server, key, res.body.data.id);
}

export async function waitForJob(server: TestServer, key: string, id: number): Promise<ImportJob> {
  for (;;) {
    const res = await server.call('GET', `/api/urls/import/${id}`, { key });
    expect(res.status, res.text).toBe(200);
    if (res.body.data.status !== 'running') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
