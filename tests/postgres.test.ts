import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createContext, type AppContext } from '../src/context.js';
import { createTestSchema, isPostgresUrl, TEST_PG_URL, withPg, type TestSchema } from './helpers/services.js';
import { MIGRATION_NAMES } from '../src/db/migrate.js';

// Runs on a PostgreSQL run (DATABASE_URL=postgres://…) or with CLUSTER=1 against TEST_PG_URL.
const PG_URL = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : TEST_PG_URL;
const silent = pino({ level: 'silent' });

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function schema(): Promise<TestSchema> {
  const s = await createTestSchema(PG_URL);
  cleanup.push(() => s.drop());
  return s;
}

async function node(s: TestSchema): Promise<AppContext> {
  const ctx = await createContext(loadConfig({ DATABASE_URL: s.url, LOG_LEVEL: 'silent' }), silent);
  cleanup.push(() => ctx.close());
  return ctx;
}

const tablesIn = (name: string) =>
  withPg(PG_URL, async (c) => {
    const { rows } = await c.query('select table_name from information_schema.tables where table_schema = $1', [name]);
    return rows.map((r: { table_name: string }) => r.table_name).sort();
  });

it('lets several nodes start on one empty schema at once: each migration runs exactly once', async () => {
  const s = await schema();
  const nodes = await Promise.all(Array.from({ length: 4 }, () => node(s)));
  const applied = await withPg(PG_URL, (c) => c.query(`select name from "${s.name}".kysely_migration`));
  expect(applied.rows.map((r: { name: string }) => r.name)).toEqual(MIGRATION_NAMES);
  // The installation secret is made once and shared, so cookies and visitor hashes agree across nodes.
  expect(new Set(nodes.map((n) => n.secret)).size).toBe(1);
  expect(await tablesIn(s.name)).toEqual(expect.arrayContaining(['links', 'users', 'kysely_migration', 'kysely_migration_lock']));
});

it('migrates a schema of its own even when another schema of the database is already migrated', async () => {
  const first = await schema();
  await node(first);
  const second = await schema();
  await node(second);
  expect(await tablesIn(second.name)).toEqual(await tablesIn(first.name));
});

it('starts again on an existing schema without migrating twice', async () => {
  const s = await schema();
  const a = await node(s);
  await a.close();
  cleanup.pop();
  const b = await node(s);
  expect(b.secret).toBe(a.secret);
  const applied = await withPg(PG_URL, (c) => c.query(`select count(*)::int as n from "${s.name}".kysely_migration`));
  expect(applied.rows[0].n).toBe(MIGRATION_NAMES.length);
});

it('reads counts as numbers and flags as 0/1 integers, as on SQLite', async () => {
  const ctx = await node(await schema());
  const user = await ctx.db
    .insertInto('users')
    .values({ email: 'a@example.com', username: 'a', password_hash: 'x', api_key_hash: 'k', created_at: '2024-01-01 00:00:00' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('channels').values({ user_id: user.id, name: 'c', starred: 1, created_at: '2024-01-01 00:00:00' }).execute();
  const row = await ctx.db.selectFrom('channels').select(['starred']).executeTakeFirstOrThrow();
  const count = await ctx.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const link = await ctx.db
    .insertInto('links')
    .values({ user_id: user.id, alias: 'abc', long_url: 'https://example.com', created_at: 'x', updated_at: 'x' })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  const stat = await ctx.db
    .insertInto('click_stats')
    .values({ target_kind: 'link', target_id: link.id, dimension: 'referrer', label: 'direct', count: 3 })
    .returning(['count'])
    .executeTakeFirstOrThrow();
  expect(row.starred).toBe(1);
  expect(count.n).toBe(1);
  expect(typeof link.id).toBe('number');
  expect(stat.count).toBe(3); // bigint column, parsed to a number
});
