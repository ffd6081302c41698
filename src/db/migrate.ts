import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connect.js';
import { isPostgres } from './dialect.js';
import * as initial from './migrations/0001-initial.js';
import * as countersInClickStats from './migrations/0002-counters-in-click-stats.js';
import * as clickSummaries from './migrations/0003-click-summaries.js';
import * as overlayEmail from './migrations/0004-overlay-email.js';
import * as canonicalDomainHosts from './migrations/0005-canonical-domain-hosts.js';
import * as clickSeries from './migrations/0006-click-series.js';
import * as visitLog from './migrations/0007-visit-log.js';
import * as importJobs from './migrations/0008-import-jobs.js';
import * as sessions from './migrations/0009-sessions.js';
import * as apiKeys from './migrations/0010-api-keys.js';
import * as accountActivity from './migrations/0011-account-activity.js';
import * as accountSafety from './migrations/0012-account-safety.js';
import * as oneRunningImport from './migrations/0013-one-running-import.js';
import * as linkTags from './migrations/0014-link-tags.js';
import * as clickJournal from './migrations/0015-click-journal.js';
import * as linkRouting from './migrations/0016-link-routing.js';
import * as linkHealth from './migrations/0017-link-health.js';
import * as webhooks from './migrations/0018-webhooks.js';
import * as variantHours from './migrations/0019-variant-hours.js';
import * as visitPackOwners from './migrations/0020-visit-pack-owners.js';
import * as webhookKeys from './migrations/0021-webhook-keys.js';
import * as healthResume from './migrations/0022-health-resume.js';

/** Migrations are listed here rather than read from disk, so `tsx` and compiled `dist/` behave alike. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-counters-in-click-stats': countersInClickStats,
  '0003-click-summaries': clickSummaries,
  '0004-overlay-email': overlayEmail,
  '0005-canonical-domain-hosts': canonicalDomainHosts,
  '0006-click-series': clickSeries,
  '0007-visit-log': visitLog,
  '0008-import-jobs': importJobs,
  '0009-sessions': sessions,
  '0010-api-keys': apiKeys,
  '0011-account-activity': accountActivity,
  '0012-account-safety': accountSafety,
  '0013-one-running-import': oneRunningImport,
  '0014-link-tags': linkTags,
  '0015-click-journal': clickJournal,
  '0016-link-routing': linkRouting,
  '0017-link-health': linkHealth,
  '0018-webhooks': webhooks,
  '0019-variant-hours': variantHours,
  '0020-visit-pack-owners': visitPackOwners,
  '0021-webhook-keys': webhookKeys,
  '0022-health-resume': healthResume,
};

/** Every migration's name, in order. */
export const MIGRATION_NAMES = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** First key of our advisory lock ('RDIR'); the second is derived from the schema being migrated. */
const LOCK_CLASS = 0x52444952;

/**
 * Brings the schema up to date; safe when several nodes start at once. On PostgreSQL, Kysely's
 * Migrator runs the migrations under its own advisory lock, but it creates its bookkeeping tables
 * (kysely_migration, kysely_migration_lock) before taking it, and it looks for them in every schema of
 * the database. So we hold a session advisory lock of our own, per schema, around the whole run, and
 * pin the bookkeeping tables to the current schema.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (!isPostgres(db)) return runMigrator(db);
  // The lock lives on one pooled connection; the Migrator uses other connections of the same pool.
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(conn);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('PostgreSQL has no current schema: check search_path in DATABASE_URL.');
    await sql`select pg_advisory_lock(${LOCK_CLASS}::int4, hashtext(${schema}))`.execute(conn);
    try {
      return await runMigrator(db, schema);
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_CLASS}::int4, hashtext(${schema}))`.execute(conn);
    }
  });
}

async function runMigrator(db: Db, migrationTableSchema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
