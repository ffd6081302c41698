import { expect } from 'vitest';
import type { TestServer } from './server.js';

let counter = 0;

export interface LinkFixture {
  id: number;
  alias: string;
  longUrl: string;
  shortUrl: string;
}

/** A short link made through POST /api/url/add, with a unique custom alias so tests know its address. */
export async function createLink(
  server: TestServer,
  key: string,
  fields: { url?: string; title?: string; password?: string; expiry?: string; type?: string; custom?: string } = {},
): Promise<LinkFixture> {
  const alias = fields.custom ?? `fx${process.pid}x${++counter}`;
  const longUrl = fields.url ?? `https://example.com/${alias}`;
  const res = await server.call('POST', '/api/url/add', { key, body: { ...fields, url: longUrl, custom: alias } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id, alias, longUrl, shortUrl: res.body.shorturl };
}
