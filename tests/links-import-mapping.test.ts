import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCsv } from './helpers/csv.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * POST /api/urls/import of files that are no known export: common header names (url, long_url, destination,
 * alias, slug, title, tags, …) are recognised without help, and `?columns=` maps every column by hand.
 */
let server: TestServer;
let key: string;
const pid = process.pid;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

const detailOf = async (alias: string) => {
  const list = (await server.call('GET', `/api/urls?limit=100&q=${alias}`, { key })).body.data.urls as Array<{ id: number; alias: string }>;
  const link = list.find((l) => l.alias === alias);
  return link && (await server.call('GET', `/api/url/${link.id}`, { key })).body.details;
};
const start = (csv: string, query = '') =>
  server.call('POST', `/api/urls/import${query}`, { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });

describe('import by recognised header names', () => {
  it.each([
    ['Destination,Slug,Title', 'dest'],
    ['Original URL,Back-half,name', 'orig'],
    ['URL,Custom,Tags', 'url'],
    ['Target URL,Short URL,Description', 'target'],
  ])('imports a file headed %s, whatever the case and separators', async (header, tag) => {
    const alias = `rec-${tag}-${pid}`;
    const short = header.includes('Short URL') ? `https://sho.rt/${alias}` : alias;
    const job = await importCsv(server, key, `${header}\nhttps://example.com/${tag},${short},Third ${tag}\n`);
    expect(job).toMatchObject({ status: 'finished', format: 'columns', total: 1, done: 1, failed: 0 });
    const details = await detailOf(alias);
    expect(details).toMatchObject({ longurl: `https://example.com/${tag}` });
    const third = header.split(',')[2]!.toLowerCase();
    if (third === 'title' || third === 'name') expect(details.title).toBe(`Third ${tag}`);
    if (third === 'description') expect(details.description).toBe(`Third ${tag}`);
  });

  it('still reads known exports by their own format, and refuses a header without a destination column', async () => {
    const bitly = await importCsv(server, key, `long_url,title\nhttps://example.com/bitly-${pid},Bitly\n`);
    expect(bitly.format).toBe('bitly');
    const res = await start('Notes,Slug\nhello,world\n');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 1, code: 'import_format_unknown' });
  });
});

describe('import with ?columns=', () => {
  it('maps each column as given, ignores the rest, and reports format columns', async () => {
    const alias = `map-${pid}`;
    const csv = `Destination,Slug,Notes,Owner\nhttps://example.com/mapped,${alias},Spring sale,ann\n`;
    const job = await importCsv(server, key, csv, `?columns=${encodeURIComponent('url,alias,description,ignore')}`);
    expect(job).toMatchObject({ status: 'finished', format: 'columns', done: 1, failed: 0 });
    expect(await detailOf(alias)).toMatchObject({ longurl: 'https://example.com/mapped', description: 'Spring sale' });
  });

  it('overrides a known format and leaves out what is mapped to ignore (empty entries too)', async () => {
    const alias = `over-${pid}`;
    const csv = `longurl,alias,title\nhttps://example.com/over,${alias},Dropped title\n`;
    const job = await importCsv(server, key, csv, '?columns=url,alias,');
    expect(job).toMatchObject({ status: 'finished', format: 'columns', done: 1 });
    expect((await detailOf(alias)).title).toBe('');
  });

  it('reads a tags column without failing the row', async () => {
    const alias = `tags-${pid}`;
    const job = await importCsv(server, key, `link target,keyword,labels\nhttps://example.com/t,${alias},"a,b"\n`, '?columns=url,alias,tags');
    expect(job).toMatchObject({ status: 'finished', done: 1, failed: 0 });
  });

  it.each([
    ['url,alias', "columns names 2 columns; the file's header row has 3."],
    ['url,alias,colour', 'columns: "colour" is not a field; use url, alias, title, description, tags or ignore.'],
    ['url,url,ignore', 'columns maps two columns to url.'],
    ['alias,title,ignore', 'columns must map one column to url, the destination of each link.'],
  ])('refuses columns=%s with 400 before any job starts', async (columns, message) => {
    const res = await start('Destination,Slug,Notes\nhttps://example.com/x,x-bad,y\n', `?columns=${encodeURIComponent(columns)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 1, message, code: 'invalid_field' });
  });

  it('works unchanged without columns for our own export format', async () => {
    const alias = `own-${pid}`;
    const job = await importCsv(server, key, `alias,longurl,title\n${alias},https://example.com/own,Own\n`);
    expect(job).toMatchObject({ format: 'redirectory', done: 1 });
  });
});
