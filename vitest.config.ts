import { configDefaults, defineConfig } from 'vitest/config';

// The cluster, PostgreSQL and Redis tests need those services: they run with CLUSTER=1 or on a PostgreSQL
// run (.ci/run's second pass), and are left out of the plain `npm test`, which needs no services.
const services = process.env.CLUSTER === '1' || /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
const SERVICE_TESTS = ['tests/cluster*.test.ts', 'tests/postgres*.test.ts', 'tests/redis*.test.ts'];
// The browser tests (tests/browser/) run in the same `npm test` when Chromium is present; chromium.ts says
// loudly when they are skipped, and fails the run with CI=true.

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: services ? configDefaults.exclude : [...configDefaults.exclude, ...SERVICE_TESTS],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/chromium.ts'],
  },
});
