import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUserByEmail } from '../src/features/account/service.js';
import { hashPassword } from '../src/infra/secrets.js';
import { olderInstall } from './helpers/older-install.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';
import { startServer, type TestServer } from './helpers/server.js';
import { cookieFrom, dashboard, PASSWORD } from './helpers/session.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_MAX: '100000', REGISTRATION: 'open' });
});
afterAll(() => server.close());

const register = (email: string) => dashboard(server, 'POST', '/api/session/register', { body: { email, password: PASSWORD } });
const signIn = (target: TestServer, email: string, password = PASSWORD) => dashboard(target, 'POST', '/api/session', { body: { email, password } });

/** The CLI as a person runs it; resolves to its stderr when it fails. */
function cliError(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['tsx', 'src/cli/main.ts', ...args],
      { env: { ...process.env, DATABASE_URL: server.config.DATABASE_URL, BASE_URL: server.config.BASE_URL } },
      (error, stdout, stderr) => (error ? resolve(stderr) : reject(new Error(`the CLI succeeded: ${stdout}`))),
    );
  });
}

describe('e-mail addresses', () => {
  it('are unique whatever their case, by registration, the CLI and an account update', async () => {
    expect((await register('reg1@x.io')).body).toMatchObject({ error: 0, data: { email: 'reg1@x.io' } });
    const again = await register('REG1@x.io');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 1, code: 'email_taken' });
    expect(await cliError(['user', 'create', '--email', 'Reg1@X.IO'])).toContain('An account with that e-mail already exists.');
    const other = await server.user();
    const update = await server.call('PUT', '/api/account/update', { key: other.apiKey, body: { email: 'reg1@X.io' } });
    expect(update.status).toBe(409);
    expect(update.body).toMatchObject({ error: 1, code: 'email_taken' });
  }, 60_000);

  it('sign in whatever their case', async () => {
    await register('Mixed.Case@Example.com');
    const res = await signIn(server, 'mixed.case@EXAMPLE.COM');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.email).toBe('Mixed.Case@Example.com');
  });

  it('stay unique when two registrations race', async () => {
    const statuses = (await Promise.all(['race@x.io', 'RACE@x.io', 'Race@X.io', 'race@X.IO'].map(register))).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 409, 409, 409]);
  });
});

describe('usernames', () => {
  it('derived from the e-mail get a free suffix; a chosen one that is taken is refused', async () => {
    const first = await register('same@one.io');
    const second = await register('same@two.io');
    expect(second.status, second.text).toBe(200);
    const session = { cookie: cookieFrom(second), csrf: second.body.data.csrf, email: 'same@two.io' };
    const account = await dashboard(server, 'GET', '/api/account', { session });
    expect(account.body.data.username).toBe('same-2');
    expect((await register('same@three.io')).status).toBe(200);
    expect(first.status).toBe(200);
    expect(await cliError(['user', 'create', '--email', 'chooser@x.io', '--username', 'same'])).toContain('That username is taken.');
  }, 60_000);
});

/** Two accounts whose e-mails differ in case only, as the release before case-insensitive e-mails let them be made. */
const withDuplicates = (url: string) =>
  olderInstall(url, '0012', async (db) => {
    for (const [email, username, password] of [
      ['dup@x.io', 'dup', 'first password'],
      ['DUP@x.io', 'dup2', 'second password'],
    ]) {
      await sql`insert into users (email, username, password_hash, api_key_hash, created_at)
      values (${email}, ${username}, ${await hashPassword(password!)}, ${`key-${username}`}, '2025-01-01 00:00:00')`.execute(db);
    }
  });

describe('existing duplicates', () => {
  let store: ProcessDb;
  beforeAll(async () => {
    store = await processDb();
    await withDuplicates(store.env.DATABASE_URL!);
  });
  afterAll(() => store.close());

  const start = async () => {
    const lines: string[] = [];
    const log = new PassThrough().on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const target = await startServer({ DATABASE_URL: store.env.DATABASE_URL, LOG_LEVEL: 'warn', REGISTRATION: 'open' }, { log });
    return { target, warnings: () => lines.map((line) => JSON.parse(line) as { msg: string; duplicates?: unknown }) };
  };

  it('are reported at start-up, and both accounts keep signing in with their own spelling', async () => {
    const { target, warnings } = await start();
    try {
      const report = warnings().find((w) => w.duplicates);
      expect(report?.msg).toContain('differ only in case');
      expect(report?.duplicates).toEqual([
        {
          email: 'dup@x.io',
          accounts: [
            { id: 1, email: 'dup@x.io' },
            { id: 2, email: 'DUP@x.io' },
          ],
        },
      ]);
      expect((await signIn(target, 'dup@x.io', 'first password')).body.data.email).toBe('dup@x.io');
      expect((await signIn(target, 'DUP@x.io', 'second password')).body.data.email).toBe('DUP@x.io');
      expect((await signIn(target, 'Dup@X.io', 'first password')).status).toBe(200); // another spelling: the oldest account
      const register = await dashboard(target, 'POST', '/api/session/register', { body: { email: 'dUp@x.io', password: PASSWORD } });
      expect(register.body).toMatchObject({ code: 'email_taken' });
      expect(await target.ctx.db.selectFrom('users').select(['id', 'email']).orderBy('id').execute()).toEqual([
        { id: 1, email: 'dup@x.io' },
        { id: 2, email: 'DUP@x.io' },
      ]);
      await deleteUserByEmail(target.ctx, 'dup@x.io'); // the administrator settles it
    } finally {
      await target.close();
    }
    const { target: again, warnings: later } = await start();
    try {
      expect(later().filter((w) => w.duplicates)).toEqual([]);
      expect((await signIn(again, 'dup@X.IO', 'second password')).body.data.email).toBe('DUP@x.io');
      expect((await dashboard(again, 'POST', '/api/session/register', { body: { email: 'dup@x.io', password: PASSWORD } })).body).toMatchObject({
        code: 'email_taken',
      });
    } finally {
      await again.close();
    }
  }, 60_000);
});
