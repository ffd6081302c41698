import { Migrator, sql, type Migration } from 'kysely';
import { connect, type Db } from '../../src/db/connect.js';
import { isPostgres } from '../../src/db/dialect.js';
import { MIGRATION_NAMES } from '../../src/db/migrate.js';

/**
 * Brings the database at `url` to the schema of the migrations before `before` only (an installation of an
 * older release), then runs `fill` on it; the current code migrates the rest when it starts there.
 */
export async function olderInstall(url: string, before: string, fill: (db: Db) => Promise<void>): Promise<void> {
  const { db } = connect(url);
  try {
    // Kysely looks for its bookkeeping tables in every schema: pin them to this test's own.
    const migrationTableSchema = isPostgres(db)
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
      : undefined;
    const older = MIGRATION_NAMES.filter((name) => name < before);
    const modules = await Promise.all(older.map((name) => import(`../../src/db/migrations/${name}.ts`) as Promise<Migration>));
    const migrations = Object.fromEntries(older.map((name, i) => [name, modules[i]!]));
    const { error } = await new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    if (error) throw error;
    await fill(db);
  } finally {
    await db.destroy();
  }
}
