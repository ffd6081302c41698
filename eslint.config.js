// ESLint for the whole tree with type information: typescript-eslint's project service reads tsconfig.json and
// web/tsconfig.json, and gives the scripts outside both a default project. `npm run lint`; CI runs it (.ci/run).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Files in neither tsconfig: the project service types them on their own (JSDoc and inference). */
const LOOSE_FILES = ['*.js', '*.ts', '.ci/*.mjs', 'bench/*.mjs', 'bench/lib/*.mjs', 'scripts/*.mjs', 'web/*.mjs'];
const JS_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs'];
/** Rules that follow `any` through the code: the tests read JSON bodies as `any` on purpose, and JS has no types. */
const UNSAFE_ANY = ['no-unsafe-argument', 'no-unsafe-assignment', 'no-unsafe-call', 'no-unsafe-member-access', 'no-unsafe-return'];
const off = (rules) => Object.fromEntries(rules.map((rule) => [`@typescript-eslint/${rule}`, 'off']));

export default tseslint.config(
  // tick-probe.cjs runs under --allow-natives-syntax and calls a V8 intrinsic through new Function on purpose.
  { ignores: ['dist/', 'dist.*/', 'coverage/', 'data/', 'tests/fixtures/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: LOOSE_FILES, maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 60 },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // What the gate is for (issue 24): promises nobody awaits, type-only imports, switches that miss a case.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // An underscore names what is left unused on purpose (a destructured key dropped, a callback's argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An empty catch is how the scripts say "ignore this failure".
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Off: `rows[i]!` marks a read known to be present, which noUncheckedIndexedAccess: false makes look unnecessary.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: async without await keeps a function's promise contract (Fastify handlers, store interfaces).
      '@typescript-eslint/require-await': 'off',
      // Off: props and options declared in method syntax are plain functions here, never called on `this`.
      '@typescript-eslint/unbound-method': 'off',
      // Off: the few `any`s are deliberate (tests' JSON bodies, Kysely over table names chosen at run time).
      '@typescript-eslint/no-explicit-any': 'off',
      // Off: String(x) of an unknown value is deliberate (log lines, escaped HTML, schema text).
      '@typescript-eslint/no-base-to-string': 'off',
      // Off: rethrowing the error a library hands back (Kysely's migrator) is the intent.
      '@typescript-eslint/only-throw-error': 'off',
      // Off: the host, key and log checks match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['tests/**'],
    rules: {
      ...off(UNSAFE_ANY),
      // Off: failure messages interpolate loosely typed reply fields.
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
    },
  },
  {
    files: JS_FILES,
    rules: {
      ...off(UNSAFE_ANY),
      // Off: the bench scripts reject with whatever the callback API gave them.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
    },
  },
);
