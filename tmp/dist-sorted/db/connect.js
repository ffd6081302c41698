import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely';
import pg from 'pg';
import { BoundedCache } from '../lib/bounded-cache.js';
// int8 (counts, sums) arrives as a string by default; our counters stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
export function connect(databaseUrl, log) {
    if (databaseUrl.startsWith('postgres'))
        return connectPostgres(databaseUrl, log);
    return connectSqlite(databaseUrl.slice('sqlite:'.length));
}
/** A better-sqlite3 connection with Redirectory's settings; every connection to the file uses them. */
export function openSqlite(path) {
    if (path !== ':memory:')
        mkdirSync(dirname(path), { recursive: true });
    const sqlite = new SQLite(path);
    // WAL lets readers run beside the click writer; NORMAL sync is durable across process crashes.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    return sqlite;
}
function connectSqlite(path) {
    const sqlite = openSqlite(path);
    const db = new Kysely({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', sqlite, sqlitePath: path };
}
/**
 * Transactions take the write lock when they begin. Other connections write the same file (the click
 * writer thread, WORKERS=N): a deferred transaction that read first could then fail at its first write
 * with SQLITE_BUSY; an immediate one waits its turn (busy_timeout) instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
    settings;
    constructor(settings) {
        super(settings);
        this.settings = settings;
    }
    createDriver() {
        return new ImmediateSqliteDriver(this.settings);
    }
}
class ImmediateSqliteDriver extends SqliteDriver {
    async beginTransaction(connection) {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    }
}
const STATEMENT_CACHE_SIZE = 500;
/**
 * Kysely's SQLite driver prepares every query anew; preparing cost about as much as running. Queries
 * repeat (their SQL text is fixed, only parameters vary), so statements are kept in a bounded LRU.
 */
function withStatementCache(sqlite) {
    const cache = new BoundedCache(STATEMENT_CACHE_SIZE);
    return {
        close: () => sqlite.close(),
        prepare: (sql) => {
            let statement = cache.get(sql);
            if (!statement)
                cache.set(sql, (statement = sqlite.prepare(sql)));
            return statement;
        },
    };
}
function connectPostgres(url, log) {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle client that loses its server (restart, failover) is dropped by the pool and replaced on the
    // next query; unhandled, that 'error' event would end the process.
    pool.on('error', (err) => log?.warn({ err }, 'PostgreSQL dropped an idle connection'));
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pool };
}
//# sourceMappingURL=connect.js.map