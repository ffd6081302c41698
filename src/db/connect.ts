import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { BoundedCache } from '../lib/bounded-cache.js';
import type { Database } from './types.js';

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  /** The raw better-sqlite3 connection, for prepared statements on the redirect path. */
  sqlite?: SQLite.Database;
  /** The SQLite file, for connections of other threads (the click writer). */
  sqlitePath?: string;
  pool?: pg.Pool;
}

// int8 (counts, sums) arrives as a string by default; our counters stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function connect(databaseUrl: string, log?: Logger): DbHandle {
  if (databaseUrl.startsWith('postgres')) return connectPostgres(databaseUrl, log);
  return connectSqlite(databaseUrl.slice('sqlite:'.length));
}

/** A better-sqlite3 connection with Redirectory's settings and a page cache of `cacheKib` KiB. */
export function openSqlite(path: string, cacheKib: number): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL lets readers run beside the click writer; NORMAL sync is durable across process crashes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${cacheKib}`);
  return sqlite;
}

/**
 * The request thread's page cache (SQLite's default is 16 MB a connection). Its biggest reader is the
 * resident link index's pass over every link, which reuses no page: at 1M links it filled the default
 * cache with pages the index already holds (docs/performance.md#rss-at-1m).
 */
const MAIN_CACHE_KIB = 2_000;

function connectSqlite(path: string): DbHandle {
  const sqlite = openSqlite(path, MAIN_CACHE_KIB);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', sqlite, sqlitePath: path };
}

/**
 * Transactions take the write lock when they begin. Other connections write the same file (the click
 * writer thread, WORKERS=N): a deferred transaction that read first could then fail at its first write
 * with SQLITE_BUSY; an immediate one waits its turn (busy_timeout) instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(settings);
  }

  override createDriver() {
    return new ImmediateSqliteDriver(this.settings);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing cost about as much as running. Queries
 * repeat (their SQL text is fixed, only parameters vary), so statements are kept in a bounded LRU.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new BoundedCache<string, SQLite.Statement>(STATEMENT_CACHE_SIZE);
  return {
    close: () => sqlite.close(),
    prepare: (sql) => {
      let statement = cache.get(sql);
      if (!statement) cache.set(sql, (statement = sqlite.prepare(sql)));
      return statement;
    },
  };
}

function connectPostgres(url: string, log?: Logger): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server (restart, failover) is dropped by the pool and replaced on the
  // next query; unhandled, that 'error' event would end the process.
  pool.on('error', (err) => log?.warn({ err }, 'PostgreSQL dropped an idle connection'));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', pool };
}
