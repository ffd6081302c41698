import { execFile } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUserByEmail } from '../src/features/account/service.js';
import { readSetupToken } from '../src/features/session/repo.js';
import { olderInstall } from './helpers/older-install.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { startServer, TEST_HOST, type TestServer } from './helpers/server.js';
import { dashboard, PASSWORD, signedInUser, signIn, type Session } from './helpers/session.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => server.close());

const alive = async (session: Session) => (await dashboard(server, 'GET', '/api/session', { session })).status;
const NEW_PASSWORD = 'another long password';

describe('a password or e-mail change', () => {
  const changes = [
    ['password', () => ({ password: NEW_PASSWORD })],
    ['e-mail', () => ({ email: `moved-${Math.random().toString(36).slice(2)}@example.com` })],
  ] as const;

  for (const [what, change] of changes) {
    it(`by API key ends every session of the account (${what})`, async () => {
      const one = await signedInUser(server);
      const two = await signIn(server, one.email);
      const bystander = await signedInUser(server);
      const res = await server.call('PUT', '/api/account/update', { key: one.apiKey, body: change() });
      expect(res.body).toMatchObject({ error: 0 });
      expect([await alive(one), await alive(two)]).toEqual([401, 401]);
      expect(await alive(bystander)).toBe(200); // another account's sessions are not touched
    });

    it(`by a dashboard session ends every other session of the account, not that one (${what})`, async () => {
      const one = await signedInUser(server);
      const two = await signIn(server, one.email);
      const res = await dashboard(server, 'PUT', '/api/account/update', { session: one, body: { ...change(), currentpassword: PASSWORD } });
      expect(res.body).toMatchObject({ error: 0 });
      expect([await alive(one), await alive(two)]).toEqual([200, 401]);
      // The API key is not a session: it keeps working.
      expect((await server.call('GET', '/api/account', { key: one.apiKey })).status).toBe(200);
    });
  }

  it('that is refused ends no session', async () => {
    const one = await signedInUser(server);
    const two = await signIn(server, one.email);
    expect((await server.call('PUT', '/api/account/update', { key: one.apiKey, body: { password: 'short' } })).status).toBe(400);
    expect((await server.call('PUT', '/api/account/update', { key: one.apiKey, body: { email: two.email } })).status).toBe(200);
    expect([await alive(one), await alive(two)]).toEqual([200, 200]); // the same e-mail is no change
  });
});

/** The CLI as a person runs it, on the database of `env`. */
function cli(env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npx', ['tsx', 'src/cli/main.ts', ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe('the first-account setup token', () => {
  let store: ProcessDb;
  beforeAll(async () => {
    store = await processDb();
  });
  afterAll(() => store.close());

  it('stops working once any account has existed, even after the last one is deleted', async () => {
    const first = await startServer({ DATABASE_URL: store.env.DATABASE_URL });
    const token = (await readSetupToken(first.ctx.db))!;
    expect(token).toEqual(expect.any(String));
    try {
      await cli(store.env, ['user', 'create', '--email', 'cli@example.com']);
      await cli(store.env, ['user', 'delete', '--email', 'cli@example.com']);
    } finally {
      await first.close();
    }
    const restarted = await startServer({ DATABASE_URL: store.env.DATABASE_URL });
    try {
      expect((await dashboard(restarted, 'GET', '/api/session/setup')).body.data.needed).toBe(false);
      expect(await readSetupToken(restarted.ctx.db)).toBeNull(); // nothing to announce in the log
      const setup = await dashboard(restarted, 'POST', '/api/session/setup', { body: { email: 'intruder@example.com', password: PASSWORD, token } });
      expect(setup.body).toMatchObject({ error: 1, code: 'setup_done' });
      expect(await restarted.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await restarted.close();
    }
  }, 120_000); // the CLI starts two processes of its own

  it('stays dead on an installation whose accounts were all deleted before this release', async () => {
    const older = await processDb();
    try {
      await olderInstall(older.env.DATABASE_URL!, '0012', async (db) => {
        await sql`insert into users (email, username, password_hash, api_key_hash, created_at)
          values ('gone@example.com', 'gone', 'x', 'key', '2025-01-01 00:00:00')`.execute(db);
        await sql`delete from users`.execute(db);
      });
      const upgraded = await startServer({ DATABASE_URL: older.env.DATABASE_URL! });
      try {
        expect((await dashboard(upgraded, 'GET', '/api/session/setup')).body.data.needed).toBe(false);
        expect(await readSetupToken(upgraded.ctx.db)).toBeNull();
      } finally {
        await upgraded.close();
      }
    } finally {
      await older.close();
    }
  });

  it('is refused once the first account is made, even when that account is gone', async () => {
    const fresh = await startServer({ RATE_LIMIT_MAX: '100000' });
    try {
      const token = (await readSetupToken(fresh.ctx.db))!;
      const user = await fresh.user();
      await deleteUserByEmail(fresh.ctx, user.email);
      const setup = await fresh.call('POST', '/api/session/setup', {
        headers: { host: TEST_HOST },
        body: { email: 'late@example.com', password: PASSWORD, token },
      });
      expect(setup.body).toMatchObject({ error: 1, code: 'setup_done' });
    } finally {
      await fresh.close();
    }
  });
});
