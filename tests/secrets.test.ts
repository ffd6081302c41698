import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/features/account/service.js';
import { accountState } from './helpers/account-state.js';
import { ensureBuilt } from './helpers/build.js';
import { send, startNode } from './helpers/cluster.js';
import { processDb } from './helpers/process-db.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';

/** API keys, account passwords and link passwords: at rest, in every answer and in the log. */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server?.close());

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const ACCOUNT_PASSWORD = 'account-pass-7f3a91';
const NEW_ACCOUNT_PASSWORD = 'account-pass-new-c02e';
const LINK_PASSWORD = 'link-pass-9b1d44';
const NEW_LINK_PASSWORD = 'link-pass-new-55e0';

describe('secrets', () => {
  it('keeps API keys only as SHA-256 hashes and passwords only as argon2id, and never shows them', async () => {
    const user = await createUser(server.ctx, { email: `secret${process.pid}@example.com`, password: ACCOUNT_PASSWORD });
    const k = user.apiKey;
    expect((await server.call('PUT', '/api/account/update', { key: k, body: { password: NEW_ACCOUNT_PASSWORD } })).status).toBe(200);
    const link = await server.call('POST', '/api/url/add', {
      key: k,
      body: { url: 'https://example.com/s', custom: 'secret-link', password: LINK_PASSWORD },
    });
    const other = await server.call('POST', '/api/url/add', {
      key: k,
      body: { url: 'https://example.com/t', custom: 'secret-two', password: LINK_PASSWORD },
    });
    expect(
      (await server.call('PUT', `/api/url/${other.body.id}/update`, { key: k, body: { url: 'https://example.com/t', password: NEW_LINK_PASSWORD } }))
        .status,
    ).toBe(200);
    const secrets = [k, ACCOUNT_PASSWORD, NEW_ACCOUNT_PASSWORD, LINK_PASSWORD, NEW_LINK_PASSWORD];

    // At rest: no table holds any of them; the hashes are what they should be.
    const db = server.ctx.db;
    for (const table of await db.introspection.getTables()) {
      const rows = JSON.stringify(
        await db
          .selectFrom(table.name as 'users')
          .selectAll()
          .execute(),
      );
      for (const secret of secrets) expect(rows.includes(secret), `${table.name} holds a secret`).toBe(false);
    }
    const row = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    // Keys live in api_keys since migration 0010 (users.api_key_hash holds a placeholder no key hashes to).
    const keyRow = await db.selectFrom('api_keys').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(keyRow.key_hash).toBe(createHash('sha256').update(k).digest('hex'));
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const links = await db.selectFrom('links').select('password_hash').where('user_id', '=', user.id).execute();
    expect(links.map((l) => l.password_hash)).toEqual([expect.stringMatching(/^\$argon2id\$/), expect.stringMatching(/^\$argon2id\$/)]);

    // In answers: every list and detail, refusals, the public form and its cookie.
    const shown = [JSON.stringify(await accountState(server, k, user.id).then((state) => state.api))];
    shown.push((await server.call('PUT', '/api/account/update', { key: k, body: { password: 'short-1' } })).text);
    shown.push(
      (
        await server.call('PUT', `/api/url/${link.body.id}/update`, {
          key: k,
          body: { url: 'https://example.com/s', password: 'too-long-2'.repeat(30) },
        })
      ).text,
    ); // refused: over 256
    const wrongKey = await server.call('GET', '/api/account', { headers: { authorization: `Bearer ${k}x` } });
    expect(wrongKey.status).toBe(401);
    shown.push(wrongKey.text, JSON.stringify(wrongKey.headers));
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER };
    const wrong = await server.visit('/secret-link', { method: 'POST', headers: form, body: 'password=guess-secret-3' });
    const right = await server.visit('/secret-link', { method: 'POST', headers: form, body: `password=${LINK_PASSWORD}` });
    expect([wrong.status, right.status]).toEqual([401, 200]);
    shown.push(
      wrong.text,
      JSON.stringify(right.headers),
      right.text,
      (await server.visit('/secret-two', { headers: { 'user-agent': BROWSER } })).text,
    );
    for (const text of shown) {
      for (const secret of [...secrets, 'short-1', 'tiny-2', 'guess-secret-3', keyRow.key_hash, '$argon2']) expect(text).not.toContain(secret);
    }
  });

  it('writes no secret to the log, even at trace level', async () => {
    await ensureBuilt();
    const db = await processDb({ LOG_LEVEL: 'trace', RATE_LIMIT_MAX: '1000' });
    try {
      const user = await db.withCtx((ctx) => createUser(ctx, { email: 'logged@example.com', password: ACCOUNT_PASSWORD }));
      const node = await startNode('logs', db.env, { entry: 'dist', logLimit: 5_000_000 });
      const k = user.apiKey;
      const json = { 'content-type': 'application/json', authorization: `Bearer ${k}` };
      await send(node.url, 'GET', '/api/account', { key: k });
      await send(node.url, 'PUT', '/api/account/update', { key: k, body: { password: NEW_ACCOUNT_PASSWORD } });
      await send(node.url, 'PUT', '/api/account/update', { key: k, body: { password: 'short-1' } });
      await send(node.url, 'POST', '/api/url/add', {
        key: k,
        body: { url: 'https://example.com/l', custom: 'logged-link', password: LINK_PASSWORD },
      });
      await request(`${node.url}/api/url/add`, {
        method: 'POST',
        headers: json,
        body: `{"url":"https://example.com","password":"${NEW_LINK_PASSWORD}`,
      }).then((r) => r.body.dump());
      await send(node.url, 'GET', '/api/account', { headers: { authorization: `Bearer ${k.slice(0, -1)}` } });
      const form = { host: TEST_HOST, 'content-type': 'application/x-www-form-urlencoded' };
      await request(`${node.url}/logged-link`, { method: 'POST', headers: form, body: 'password=guess-secret-3' }).then((r) => r.body.dump());
      const right = await request(`${node.url}/logged-link`, { method: 'POST', headers: form, body: `password=${LINK_PASSWORD}` });
      await right.body.dump();
      const cookie = String(right.headers['set-cookie']).split(';')[0]!;
      await request(`${node.url}/logged-link`, { headers: { host: TEST_HOST, cookie } }).then((r) => r.body.dump());
      await request(`${node.url}/logged-link`, {
        method: 'POST',
        headers: { ...form, 'content-type': 'application/json' },
        body: `{"password":"${LINK_PASSWORD}`,
      }).then((r) => r.body.dump());
      expect(await node.stop()).toBe(0);

      const log = node.output();
      expect(log).toContain('incoming request'); // trace really logs every request
      const keyHash = createHash('sha256').update(k).digest('hex');
      for (const secret of [
        k,
        k.slice(0, -1),
        keyHash,
        ACCOUNT_PASSWORD,
        NEW_ACCOUNT_PASSWORD,
        'short-1',
        LINK_PASSWORD,
        NEW_LINK_PASSWORD,
        'guess-secret-3',
        cookie.split('=')[1]!,
        '$argon2',
      ]) {
        expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
      }
    } finally {
      await db.close();
    }
  }, 90_000);
});
