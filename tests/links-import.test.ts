import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTimestamp } from '../src/lib/time.js';
import { csvRecords, exportedLinks, importCsv, toCsv } from './helpers/csv.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

let server: TestServer;
let key: string;
const BASE = `http://${TEST_HOST}`;
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
  key = (await server.user()).apiKey;
});
afterAll(() => server.close());

const post = async (path: string, body: unknown, k = key, s = server) => {
  const res = await s.call('POST', path, { key: k, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const sendCsv = (csv: string, k = key, type = 'text/csv') =>
  server.call('POST', '/api/urls/import', { key: k, rawBody: csv, headers: { 'content-type': type } });
const detailOf = async (alias: string, k = key, s = server) => {
  const list = (await s.call('GET', `/api/urls?limit=1000&q=${alias}`, { key: k })).body.data.urls as Array<{ id: number; alias: string }>;
  const link = list.find((l) => l.alias === alias);
  return link && (await s.call('GET', `/api/url/${link.id}`, { key: k })).body.details;
};

const OWN_HEADER = ['alias', 'longurl', 'title', 'protected', 'password', 'geotarget', 'date'];

describe('POST /api/urls/import', () => {
  it("imports rows that pass url/add's checks and reports each failed row with its number and reason", async () => {
    await post('/api/url/add', { url: 'https://example.com/taken', custom: 'imp-taken' }, (await server.user()).apiKey);
    const csv =
      toCsv(
        [
          {
            alias: 'imp-ok',
            longurl: 'https://example.com/ok',
            title: 'OK',
            protected: '0',
            password: '',
            geotarget: '',
            date: '2020-01-02 03:04:05',
          },
          { alias: 'imp-bad-url', longurl: 'javascript:alert(1)', title: '', protected: '', password: '', geotarget: '', date: '' },
          { alias: 'imp-taken', longurl: 'https://example.com/t', title: '', protected: '', password: '', geotarget: '', date: '' },
          { alias: 'imp-twice', longurl: 'https://example.com/1', title: '', protected: '', password: '', geotarget: '', date: '' },
          { alias: 'imp-twice', longurl: 'https://example.com/2', title: '', protected: '', password: '', geotarget: '', date: '' },
          { alias: 'imp-locked', longurl: 'https://example.com/l', title: '', protected: '1', password: '', geotarget: '', date: '' },
          { alias: 'imp-json', longurl: 'https://example.com/j', title: '', protected: '', password: '', geotarget: '{not json', date: '' },
          { alias: 'api', longurl: 'https://example.com/r', title: '', protected: '', password: '', geotarget: '', date: '' },
          { alias: 'imp-date', longurl: 'https://example.com/d', title: '', protected: '', password: '', geotarget: '', date: 'yesterday' },
          { alias: '', longurl: 'https://example.com/random', title: 'Random alias', protected: '1', password: 'secret', geotarget: '', date: '' },
        ],
        OWN_HEADER,
      ) + 'imp-short,https://example.com/s\n';
    const job = await importCsv(server, key, csv);
    expect(job).toMatchObject({ status: 'finished', format: 'redirectory', total: 11, done: 3, failed: 8, message: '' });
    expect(job.errors.map((e) => [e.row, e.code])).toEqual([
      [3, 'invalid_field'],
      [4, 'alias_taken'],
      [6, 'alias_taken'],
      [7, 'import_password_missing'],
      [8, 'invalid_field'],
      [9, 'alias_reserved'],
      [10, 'invalid_field'],
      [12, 'invalid_field'],
    ]);
    expect(job.errors[0]!.message).toContain('url');
    expect(job.errors[4]!.message).toContain('geotarget');
    expect(job.errors[7]!.message).toBe('The row has 2 fields; the header has 7.');
    expect(await detailOf('imp-ok')).toMatchObject({ longurl: 'https://example.com/ok', title: 'OK', date: '2020-01-02 03:04:05' });
    expect(await detailOf('imp-twice')).toMatchObject({ longurl: 'https://example.com/1' });
    expect((await server.visit('/imp-ok')).headers.location).toBe('https://example.com/ok');
    const random = (await exportedLinks(server, key)).find((r) => r.title === 'Random alias')!;
    expect(random).toMatchObject({ protected: '1', alias: expect.stringMatching(/^[A-Za-z0-9]{7}$/) });
  });

  it('refuses what is not a CSV of a known format with a 400 before any job, and a file broken further down as a failed job', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['', 'text/csv', 400, 'csv_invalid'],
      ['"unclosed,header\n', 'text/csv', 400, 'csv_invalid'],
      ['name,address\nx,y\n', 'text/csv', 400, 'import_format_unknown'],
      ['{"longurl":"x"}', 'application/json', 415, 'unsupported_media_type'],
      ['longurl,alias\n', 'multipart/form-data; boundary=x', 415, 'unsupported_media_type'],
    ];
    for (const [body, type, status, code] of cases) {
      const res = await sendCsv(body, key, type);
      expect(res.status, body).toBe(status);
      expect(res.body, body).toEqual({ error: 1, message: expect.any(String), code });
    }
    const unknown = await sendCsv('name,address\n');
    expect(unknown.body.message).toContain('redirectory (longurl, alias); shlink (shortcode, longurl)');
    const k = (await server.user()).apiKey;
    const res = await sendCsv('longurl,alias\nhttps://example.com/a,imp-broken-a\n"https://example.com/b,imp-broken-b\n', k);
    expect(res.status).toBe(200);
    const { waitForJob } = await import('./helpers/csv.js');
    const job = await waitForJob(server, k, res.body.data.id);
    expect(job).toMatchObject({ status: 'failed', done: 0, failed: 0, message: expect.stringContaining('not valid CSV') });
    expect((await server.call('GET', '/api/urls', { key: k })).body.data.result).toBe(0);
  });

  it("answers another account's job and an unknown one with 404", async () => {
    const job = await importCsv(server, key, 'longurl,alias\nhttps://example.com/mine,\n');
    const other = (await server.user()).apiKey;
    for (const [id, k] of [
      [job.id, other],
      [999999, key],
    ] as const) {
      const res = await server.call('GET', `/api/urls/import/${id}`, { key: k });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 1, message: 'Import not found.', code: 'not_found' });
    }
    expect((await server.call('GET', `/api/urls/import/${job.id}`)).status).toBe(401);
  });

  it('runs one import per account at a time; one whose server went away is reported failed', async () => {
    const user = await server.user();
    const now = nowTimestamp();
    const id = (
      await server.ctx.db
        .insertInto('import_jobs')
        .values({ user_id: user.id, status: 'running', format: 'redirectory', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const busy = await sendCsv('longurl,alias\nhttps://example.com/x,\n', user.apiKey);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'import_running', message: expect.stringContaining(`/api/urls/import/${id}`) });
    await server.ctx.db.updateTable('import_jobs').set({ updated_at: '2000-01-01 00:00:00' }).where('id', '=', id).execute();
    expect((await server.call('GET', `/api/urls/import/${id}`, { key: user.apiKey })).body.data).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('stopped'),
    });
    expect((await importCsv(server, user.apiKey, 'longurl,alias\nhttps://example.com/x,\n')).done).toBe(1);
  });

  it("puts rows without a domain on the branded domain named by ?domain=, which must be the caller's", async () => {
    const user = await server.user();
    await post('/api/domain/add', { domain: 'https://go.import.example' }, user.apiKey);
    const job = await importCsv(
      server,
      user.apiKey,
      'longurl,alias,domain\nhttps://example.com/a,imp-dom-a,\nhttps://example.com/b,imp-dom-b,' + BASE + '\n',
      '?domain=go.import.example',
    );
    expect(job).toMatchObject({ done: 2, failed: 0 });
    const rows = await exportedLinks(server, user.apiKey);
    expect(rows.map((r) => r.shorturl)).toEqual(['https://go.import.example/imp-dom-a', `${BASE}/imp-dom-b`]);
    const wrong = await server.call('POST', '/api/urls/import?domain=elsewhere.example', {
      key: user.apiKey,
      rawBody: 'longurl,alias\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(wrong.status).toBe(400);
  });

  it('imports a few thousand rows in chunks and counts them all', async () => {
    const user = await server.user();
    const rows = Array.from({ length: 2500 }, (_, i) => ({ longurl: `https://example.com/many/${i}`, alias: i === 1700 ? 'x' : '' }));
    const job = await importCsv(server, user.apiKey, toCsv(rows));
    expect(job).toMatchObject({ status: 'finished', total: 2500, done: 2499, failed: 1, errors: [{ row: 1702, code: 'alias_invalid' }] });
    expect((await server.call('GET', '/api/urls?limit=1', { key: user.apiKey })).body.data.result).toBe(2499);
  }, 60_000);
});

describe('a round trip: export, then import into another account', () => {
  let other: TestServer;
  afterAll(() => other?.close());

  it('reproduces every link field by field', async () => {
    other = await startServer({ RATE_LIMIT_MAX: '100000' });
    const from = (await server.user()).apiKey;
    const to = (await other.user()).apiKey;
    for (const [s, k] of [
      [server, from],
      [other, to],
    ] as const)
      await post('/api/domain/add', { domain: 'https://go.trip.example' }, k, s);
    const url = 'https://example.com/trip';
    await post(
      '/api/url/add',
      {
        url: `${url}/full?x=1`,
        custom: 'trip-full',
        domain: 'go.trip.example',
        type: 'frame',
        password: 'pw',
        expiry: '2099-12-31 23:59:59',
        title: 'Trip, "quoted"',
        description: 'two\nlines',
        metatitle: 'MT',
        metadescription: 'MD',
        metaimage: 'https://example.com/i.png',
        geotarget: [{ location: 'Germany', link: `${url}/de` }],
        devicetarget: [{ device: 'android', link: `${url}/android` }],
        languagetarget: [{ language: 'pt_BR', link: `${url}/pt` }],
        parameters: [{ name: 'utm_source', value: 'é, ü' }],
        tags: ['trip', 'Summer sale'],
        rules: [
          {
            conditions: [{ type: 'country', value: 'DE' }],
            split: [
              { url: `${url}/de-a`, weight: 2 },
              { url: `${url}/de-b`, weight: 1 },
            ],
          },
        ],
        split: [
          { url: `${url}/a`, weight: 1 },
          { url: `${url}/b`, weight: 1 },
        ],
        maxvisits: 500,
        expiredurl: `${url}/over`,
      },
      from,
    );
    await post('/api/url/add', { url: `${url}/plain`, metatitle: 'Only meta' }, from);
    await post('/api/url/add', { url: `${url}/splash`, custom: 'trip-splash', type: 'splash' }, from);

    const exported = await exportedLinks(server, from);
    const csv = toCsv(exported.map((r) => ({ ...r, password: r.protected === '1' ? 'pw' : '' })));
    const res = await other.call('POST', '/api/urls/import', { key: to, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    const { waitForJob } = await import('./helpers/csv.js');
    const job = await waitForJob(other, to, res.body.data.id);
    expect(job).toMatchObject({ status: 'finished', format: 'redirectory', total: 3, done: 3, failed: 0 });

    const again = await exportedLinks(other, to);
    const fields = (r: Record<string, string>) => ({ ...r, id: undefined, clicks: undefined, uniqueClicks: undefined, password: undefined });
    expect(again.map(fields)).toEqual(exported.map(fields));
    for (const row of exported) {
      const [a, b] = [await detailOf(row.alias!, from), await detailOf(row.alias!, to, other)];
      expect({ ...b, id: undefined }).toEqual({ ...a, id: undefined });
    }
  });
});

describe('cells escaped against spreadsheet formulas', () => {
  it('import back to the very titles and aliases they were exported from', async () => {
    const [from, to] = [(await server.user()).apiKey, (await server.user()).apiKey];
    const domains = ['https://go.formula-a.example', 'https://go.formula-b.example'];
    for (const [domain, k] of [
      [domains[0], from],
      [domains[1], to],
    ] as const)
      await post('/api/domain/add', { domain }, k);
    const texts = ['=HYPERLINK("https://evil.test","x")', "+cmd|' /C calc'!A0", '@SUM(1)', '-2+3', "'=already quoted", "''+twice", "it's plain"];
    for (const [i, title] of texts.entries()) {
      await post(
        '/api/url/add',
        { url: `https://example.com/f/${i}`, custom: `-f${i}`, domain: 'go.formula-a.example', title, description: title },
        from,
      );
    }
    const exported = await exportedLinks(server, from);
    expect(exported.map((r) => [r.alias, r.title])).toEqual(texts.map((title, i) => [`'-f${i}`, /^'*[=+\-@\t\r]/.test(title) ? `'${title}` : title]));

    const csv = toCsv(exported.map((r) => ({ ...r, domain: domains[1] })));
    expect(await importCsv(server, to, csv)).toMatchObject({ status: 'finished', format: 'redirectory', done: texts.length, failed: 0 });
    const again = await exportedLinks(server, to);
    expect(again.map((r) => [r.alias, r.title, r.description])).toEqual(exported.map((r) => [r.alias, r.title, r.description]));
    for (const [i, title] of texts.entries()) expect(await detailOf(`-f${i}`, to)).toMatchObject({ title, description: title });
  });
});

describe('CSV exports of other services', () => {
  const cases = [
    [
      'shlink',
      'shlink-short-urls.csv',
      [
        { alias: 'shl-one', longurl: 'https://example.com/shlink/1', title: 'First, with a comma', date: '2023-05-01 08:20:30' },
        { alias: 'shl-two', longurl: 'https://example.com/shlink/2', title: '', date: '2023-05-02 00:00:00' },
      ],
      [[4, 'alias_invalid']],
    ],
    [
      'bitly',
      'bitly-links.csv',
      [
        { alias: '3bitOne', longurl: 'https://example.com/bitly/1', title: 'Bitly one', date: '2022-03-04 05:06:07' },
        { alias: 'bitly-custom', longurl: 'https://example.com/bitly/2', title: 'Bitly two', date: '2022-03-05 00:00:00' },
      ],
      [[4, 'invalid_field']],
    ],
    [
      'yourls',
      'yourls-urls.csv',
      [
        { alias: 'yrl-one', longurl: 'https://example.com/yourls/1', title: 'YOURLS one', date: '2021-07-08 09:10:11' },
        { alias: 'yrl-two', longurl: 'https://example.com/yourls/2', title: '', date: '2021-07-09 00:00:00' },
      ],
      [[4, 'alias_invalid']],
    ],
    [
      'kutt',
      'kutt-links.csv',
      [
        {
          alias: 'kutt-one',
          longurl: 'https://example.com/kutt/1',
          description: 'Kutt one',
          expiry: '2030-01-01 00:00:00',
          date: '2020-02-03 04:05:06',
        },
      ],
      [[3, 'import_password_missing']],
    ],
  ] as const;

  it.each(cases)('detects %s from its header and maps its columns', async (format, file, links, failures) => {
    const k = (await server.user()).apiKey;
    const job = await importCsv(server, k, fixture(file));
    expect(job).toMatchObject({ status: 'finished', format, done: links.length, failed: failures.length });
    expect(job.errors.map((e) => [e.row, e.code])).toEqual(failures);
    const rows = await exportedLinks(server, k);
    expect(rows).toEqual(links.map((link) => expect.objectContaining({ ...link, domain: '', shorturl: `${BASE}/${link.alias}` })));
  });
});

describe('npm run cli -- import', () => {
  it('imports a file for an account with the same rules, reports progress on stderr and a JSON summary on stdout', async () => {
    const user = await server.user();
    const file = join(mkdtempSync(join(tmpdir(), 'redirectory-cli-')), 'links.csv');
    writeFileSync(
      file,
      toCsv(Array.from({ length: 1500 }, (_, i) => ({ longurl: `https://example.com/cli/${i}`, alias: i === 3 ? 'api' : `cli-${i}` }))),
    );
    const run = promisify(execFile);
    const { stdout, stderr } = await run('npx', ['tsx', 'src/cli/main.ts', 'import', '--email', user.email, file], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, DATABASE_URL: server.config.DATABASE_URL, BASE_URL: server.config.BASE_URL, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(stdout)).toEqual({
      format: 'redirectory',
      total: 1500,
      done: 1499,
      failed: 1,
      errors: [{ row: 5, code: 'alias_reserved', message: expect.stringContaining('"api"') }],
    });
    expect(stderr).toMatch(/1500\/1500/);
    expect(csvRecords((await server.call('GET', '/api/urls/export', { key: user.apiKey })).text)).toHaveLength(1499);
    const missing = await run('npx', ['tsx', 'src/cli/main.ts', 'import', '--email', user.email], { cwd: join(import.meta.dirname, '..') }).catch(
      (e) => e,
    );
    expect(missing.code).toBe(1);
  }, 120_000);
});
