import type SQLite from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { Db, DbHandle } from '../../../db/connect.js';
import { andThen, type MaybePromise } from '../../../lib/maybe-promise.js';
import { publicDomainQuery } from '../../domains/access.js';
import { indexableLinksQuery, publicLinkQuery } from '../../links/access.js';
import { pixelTagsQuery } from '../../pixels/service.js';
import { linkClicksQuery } from '../../../clicks/stats-repo.js';

/** A query whose SQL is built once by Kysely and then run with fresh arguments. */
type Query<A extends unknown[], R> = (
  db: Db,
  ...args: A
) => Compilable<R> & {
  execute(): Promise<R[]>;
};

/** Names of the PostgreSQL statements prepared here, one per query of this process. */
let statements = 0;

/**
 * Runs a Kysely-built query on the redirect path, compiled once (Kysely's per-call building and compiling
 * cost more than the lookup itself). On SQLite the SQL becomes one prepared statement of the raw
 * connection, answered synchronously; on PostgreSQL a named statement, which each pooled connection parses
 * and plans once (docs/performance.md#pg-prepared-reads). Rows come back as Kysely gives them: it hands
 * on `pg`'s rows untouched. `sample` must hold distinct values: they map the compiled placeholders back to
 * argument positions.
 */
function prepare<A extends unknown[], R>(handle: DbHandle, query: Query<A, R>, sample: A): (...args: A) => MaybePromise<R[]> {
  const { sqlite, pool } = handle;
  const compiled = query(handle.db, ...sample).compile();
  const positions = compiled.parameters.map((p) => {
    const index = sample.indexOf(p);
    if (index < 0) throw new Error(`redirect query parameter ${String(p)} is not an argument`);
    return index;
  });
  if (pool) {
    const name = `redirect_${++statements}`;
    return async (...args) => (await pool.query<R & object>({ name, text: compiled.sql, values: positions.map((i) => args[i]) })).rows;
  }
  if (!sqlite) return (...args) => query(handle.db, ...args).execute();
  let statement: SQLite.Statement<unknown[], unknown[]> | null = null;
  let toRow: ((values: unknown[]) => R) | null = null;
  return (...args) => {
    if (!statement) {
      statement = sqlite.prepare<unknown[], unknown[]>(compiled.sql).raw(true);
      toRow = rowMaker<R>(statement.columns().map((c) => c.name));
    }
    return statement.all(...positions.map((i) => args[i])).map(toRow!);
  };
}

/** Rows as arrays, made into objects here: cheaper than better-sqlite3's own row objects (docs/performance.md#rows-as-arrays). */
function rowMaker<R>(names: string[]): (values: unknown[]) => R {
  return (values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row as R;
  };
}

// The queries are their tables' owners'; this module only prepares them.
const linkQuery = publicLinkQuery;
const domainQuery = publicDomainQuery;
const pixelsQuery = pixelTagsQuery;

type RowOf<Q> = Q extends (...args: never[]) => Compilable<infer R> ? R : never;
export type PublicLinkRow = RowOf<typeof linkQuery>;
export type PublicDomainRow = RowOf<typeof domainQuery>;
export type PixelTagRow = RowOf<typeof pixelsQuery>;
export type IndexableLinkRow = RowOf<typeof indexableLinksQuery>;

const first =
  <A extends unknown[], R>(run: (...args: A) => MaybePromise<R[]>) =>
  (...args: A): MaybePromise<R | undefined> =>
    andThen(run(...args), (rows) => rows[0]);

/** The reads of every cache miss, prepared once per process (splash, overlay and bio pages come from the pages feature). */
export function publicRepo(handle: DbHandle) {
  return {
    link: first(prepare(handle, linkQuery, [-7001, '\u0000alias'])),
    domain: first(prepare(handle, domainQuery, ['\u0000host'])),
    pixels: prepare(handle, pixelsQuery, [-7002]),
    /** A capped link's stored clicks, read when it is compiled (compile.ts). */
    clicks: first(prepare(handle, linkClicksQuery, [-7005])),
    /** A page of the resident index's pass (link-index.ts): rows as arrays on SQLite, as on every miss. */
    indexable: prepare(handle, indexableLinksQuery, [-7003, 7004]),
  };
}

export type PublicRepo = ReturnType<typeof publicRepo>;
