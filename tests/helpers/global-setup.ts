import { assertServicesReachable, isPostgresUrl, TEST_PG_URL, TEST_REDIS_URL } from './services.js';

/**
 * Runs once before all test files. A run on PostgreSQL or Redis (DATABASE_URL=postgres://…, REDIS_URL)
 * or with the cluster test (CLUSTER=1) checks those services answer first: an unreachable service fails
 * the whole run with one clear message instead of every test timing out or being skipped. Each test
 * server then makes its own schema and Redis prefix (tests/helpers/server.ts).
 */
export default async function setup(): Promise<void> {
  const { DATABASE_URL, REDIS_URL, CLUSTER } = process.env;
  const pgUrl = isPostgresUrl(DATABASE_URL) ? DATABASE_URL : undefined;
  await assertServicesReachable(pgUrl, REDIS_URL);
  // The cluster test (tests/cluster.test.ts) needs both services even when the run itself is on SQLite.
  if (CLUSTER === '1' && !pgUrl) await assertServicesReachable(TEST_PG_URL, REDIS_URL ?? TEST_REDIS_URL);
}
