import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { openContext, type AppContext } from '../../src/context.js';
import { TEST_HOST } from './server.js';
import { createTestSchema, deleteRedisPrefix, isPostgresUrl, uniqueName, withPg } from './services.js';

/**
 * A database for tests that run real server processes and kill them: a SQLite file of its own, or on a
 * PostgreSQL run (DATABASE_URL=postgres://…) a schema of its own, with a Redis prefix of its own when
 * REDIS_URL is set. `env` is what every process started on it gets.
 */
export interface ProcessDb {
  dialect: 'sqlite' | 'postgres';
  env: Record<string, string>;
  /** Runs `use` with a context of the test process on the same database (users, direct reads), then closes it. */
  withCtx<T>(use: (ctx: AppContext) => Promise<T>): Promise<T>;
  /** What is wrong with the database's structure after a crash; empty when nothing is. */
  integrityProblems(): Promise<string[]>;
  close(): Promise<void>;
}

export async function processDb(extraEnv: Record<string, string> = {}): Promise<ProcessDb> {
  const name = uniqueName();
  const pgBase = process.env.DATABASE_URL;
  const schema = isPostgresUrl(pgBase) ? await createTestSchema(pgBase, name) : undefined;
  const dir = schema ? undefined : mkdtempSync(join(tmpdir(), 'redirectory-proc-'));
  const file = dir ? join(dir, 'node.db') : undefined;
  const env: Record<string, string> = {
    DATABASE_URL: schema ? schema.url : `sqlite:${file}`,
    BASE_URL: `http://${TEST_HOST}`,
    LOG_LEVEL: 'warn',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `${name}:` } : {}),
    ...extraEnv,
  };
  const withCtx = async <T>(use: (ctx: AppContext) => Promise<T>): Promise<T> => {
    const ctx = await openContext(loadConfig({ ...env, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    try {
      return await use(ctx);
    } finally {
      await ctx.close();
    }
  };
  return {
    dialect: schema ? 'postgres' : 'sqlite',
    env,
    withCtx,
    integrityProblems: () => (schema ? pgProblems(schema.url, schema.name) : Promise.resolve(sqliteProblems(file!))),
    close: async () => {
      try {
        if (env.REDIS_PREFIX) await withCtx((ctx) => deleteRedisPrefix(ctx.redis!, env.REDIS_PREFIX!));
      } finally {
        await schema?.drop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** SQLite checks every page, index and constraint itself. */
function sqliteProblems(file: string): string[] {
  const db = new SQLite(file);
  try {
    const integrity = db.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>;
    const foreign = db.pragma('foreign_key_check') as Array<Record<string, unknown>>;
    return [
      ...integrity
        .map((r) => r.integrity_check)
        .filter((r) => r !== 'ok')
        .map((r) => `integrity_check: ${r}`),
      ...foreign.map((r) => `foreign_key_check: ${JSON.stringify(r)}`),
    ];
  } finally {
    db.close();
  }
}

/**
 * PostgreSQL enforces constraints transactionally, so a crash cannot break them; this checks that it
 * did not: no duplicate alias on a domain, and no row pointing at a missing parent for any foreign key.
 */
async function pgProblems(url: string, schema: string): Promise<string[]> {
  return withPg(url, async (c) => {
    const problems: string[] = [];
    const dupes = await c.query('select domain_id, alias, count(*) as n from links group by domain_id, alias having count(*) > 1');
    for (const row of dupes.rows) problems.push(`duplicate alias: ${JSON.stringify(row)}`);
    const fks = await c.query(
      `select cl.relname as child, a.attname as col, pcl.relname as parent, pa.attname as pcol
         from pg_constraint k
         join pg_class cl on cl.oid = k.conrelid join pg_namespace n on n.oid = cl.relnamespace
         join pg_class pcl on pcl.oid = k.confrelid
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         join pg_attribute pa on pa.attrelid = k.confrelid and pa.attnum = k.confkey[1]
        where k.contype = 'f' and n.nspname = $1`,
      [schema],
    );
    for (const fk of fks.rows as Array<{ child: string; col: string; parent: string; pcol: string }>) {
      const orphans = await c.query(
        `select count(*)::int as n from "${fk.child}" c where c."${fk.col}" is not null
           and not exists (select 1 from "${fk.parent}" p where p."${fk.pcol}" = c."${fk.col}")`,
      );
      if (orphans.rows[0].n > 0) problems.push(`${orphans.rows[0].n} ${fk.child}.${fk.col} rows point at no ${fk.parent}`);
    }
    return problems;
  });
}
