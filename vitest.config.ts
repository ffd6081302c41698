import { configDefaults, defineConfig } from 'vitest/config';

// The cluster, PostgreSQL and Redis tests need those services: they run with CLUSTER=1 or on a PostgreSQL
// run (.ci/run's second pass), and are left out of the plain `npm test`, which needs no services.
const services = process.env.CLUSTER === '1' || /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
const SERVICE_TESTS = ['tests/cluster*.test.ts', 'tests/postgres*.test.ts', 'tests/redis*.test.ts'];
const exclude = services ? configDefaults.exclude : [...configDefaults.exclude, ...SERVICE_TESTS];
// The fast lane, `npm run test:unit` (project `unit`): tests that start no server, browser or child process
// (pure code, or a SQLite file of their own), named *.unit.test.ts. `npm test` runs both projects.
const UNIT_TESTS = ['tests/**/*.unit.test.ts'];
// The browser tests (tests/browser/) run in the same `npm test` when Chromium is present; chromium.ts says
// loudly when they are skipped, and fails the run with CI=true.

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS, exclude, globalSetup: ['tests/helpers/global-setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/**/*.test.ts'],
          exclude: [...exclude, ...UNIT_TESTS],
          globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/chromium.ts'],
        },
      },
    ],
  },
});
