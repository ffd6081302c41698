import { ensureBuilt as build } from '../../scripts/build.mjs';

/**
 * Builds dist/ as `npm start` does (scripts/build.mjs, tsc -p tsconfig.build.json) when its sources changed since
 * the last build, so tests that spawn `node dist/server.js` run the code in the working tree. Test files running
 * in parallel, and an `npm start` in the same checkout, build once between them (one lock, one stamp). A tree
 * with type errors still builds (tsc writes its output anyway): the tests run it as it is. `npm test` type-checks
 * first (scripts/typecheck.mjs, its pretest) and stops on a type error; a direct `npx vitest` run does not.
 */
export const ensureBuilt = async (): Promise<void> => void (await build({ steps: ['server'], tolerant: true, quiet: true }));

/** Builds the dashboard into dist/web (web/build.mjs: vite, precompression, size budget) when web/ changed, for the tests of /app. */
export const ensureWebBuilt = async (): Promise<void> => void (await build({ steps: ['web'], tolerant: true, quiet: true }));
