import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connect.js';
import * as initial from './migrations/0001-initial.js';

/** Migrations are listed here rather than read from disk, so `tsx` and compiled `dist/` behave alike. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date. Kysely holds a database lock while it runs, so nodes may start together. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
