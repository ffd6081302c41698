import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports run one way: features → http / cache → context / clicks → db / infra / config → lib. This reads every
 * import of src/ (static, `export … from` and dynamic) and fails on any that points back up.
 */
const SRC = resolve(import.meta.dirname, '../src');

/** Which folders each layer may import from (besides itself); features are checked on their own below. */
const ALLOWED: Record<string, string[]> = {
  // Publishes cache keys; each entry point is called by the owner of the rows behind it (checked below).
  cache: ['lib', 'db', 'config.ts', 'context.ts'],
  lib: [],
  // What does I/O or holds process state below the app: Redis, invalidation transports, readiness, geo, logging.
  infra: ['lib', 'config.ts'],
  db: ['lib'],
  'config.ts': ['lib'],
  clicks: ['lib', 'db', 'config.ts', 'infra'],
  // The named start-up steps (open the database, migrate, load the secret, build services, background work).
  start: ['lib', 'db', 'config.ts', 'clicks', 'infra'],
  'context.ts': ['lib', 'db', 'config.ts', 'clicks', 'infra', 'start'],
  http: ['lib', 'db', 'config.ts', 'context.ts', 'infra'],
  features: ['lib', 'db', 'config.ts', 'context.ts', 'clicks', 'cache', 'http', 'features', 'infra'],
};

interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;

const edges: Edge[] = sourceFiles(SRC).flatMap((file) => {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => ({
    from: relative(SRC, file),
    to: relative(SRC, resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
  }));
});

/** `lib`, `db`, `http`, `clicks`, `features`, `cli` or a top-level file such as `context.ts`. */
const layerOf = (path: string) => path.split('/')[0]!;
/** `features/links/service.ts` → `links`; null outside features. */
const featureOf = (path: string) => (path.startsWith('features/') ? path.split('/')[1]! : null);

const show = (list: Edge[]) => list.map((e) => `${e.from} → ${e.to}`);

describe('import direction', () => {
  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'app.ts', to: 'features/links/routes.ts' });
  });

  it('lib, db, config, clicks, context and http import only the layers below them', () => {
    const wrong = edges.filter(({ from, to }) => {
      const allowed = ALLOWED[layerOf(from)];
      return allowed !== undefined && layerOf(to) !== layerOf(from) && !allowed.includes(layerOf(to));
    });
    expect(show(wrong)).toEqual([]);
  });

  it('no two feature folders import each other, directly or through others', () => {
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [featureOf(from), featureOf(to)];
      if (a && b && a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const reach = (start: string, node: string, path: string[], seen: Set<string>): void => {
      for (const next of graph.get(node) ?? []) {
        if (next === start) cycles.push([...path, next].join(' → '));
        else if (!seen.has(next)) reach(start, next, [...path, next], seen.add(next));
      }
    };
    for (const feature of graph.keys()) reach(feature, feature, [feature], new Set());
    expect(cycles).toEqual([]);
  });

  it("a feature reads another feature's data through its exported functions, never its repo", () => {
    const wrong = edges.filter(({ from, to }) => {
      const [a, b] = [featureOf(from), featureOf(to)];
      return a && b && a !== b && /(^|[-/])repo\.ts$/.test(to);
    });
    expect(show(wrong)).toEqual([]);
  });
});

/**
 * One owner per table (docs/decisions/0002-table-ownership.md): only a table's owning module names it in
 * SQL, Kysely's builder calls or raw `sql` text alike; the others call functions the owner exports.
 */
/** Table → owning module (a folder or file under src/). */
const TABLE_OWNERS: Record<string, string> = {
  users: 'features/account',
  api_keys: 'features/account',
  account_activity: 'features/account',
  sessions: 'features/session',
  settings: 'db/settings.ts',
  domains: 'features/domains',
  links: 'features/links',
  import_jobs: 'features/links',
  pixels: 'features/pixels',
  link_pixels: 'features/pixels',
  link_tags: 'features/tags',
  campaigns: 'features/campaigns',
  channels: 'features/channels',
  channel_items: 'features/channels',
  splash_pages: 'features/custom-pages',
  overlays: 'features/custom-pages',
  bio_pages: 'features/custom-pages',
  qr_codes: 'features/qr',
  click_stats: 'clicks',
  click_summaries: 'clicks',
  click_journal: 'clicks',
  click_uniques: 'clicks',
  deleted_targets: 'clicks',
  click_hours: 'clicks',
  click_days: 'clicks',
  account_hours: 'clicks',
  account_days: 'clicks',
  visit_packs: 'clicks',
  health_checks: 'features/health',
  webhooks: 'features/webhooks',
  webhook_deliveries: 'features/webhooks',
};

/** The schema's history names every table; it is no owner's. */
const EXEMPT = ['db/migrations/'];

/** The tables of the `Database` interface in src/db/types.ts. */
function databaseTables(): string[] {
  const text = readFileSync(join(SRC, 'db/types.ts'), 'utf8');
  const body = /export interface Database \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+)\s*:/gm)].map((m) => m[1]!);
}

const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Index just past the template literal that starts before `at` (nested `${…}` and templates included). */
function templateEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (depth === 0 && c === '`') return i;
    else if (c === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (depth > 0 && c === '{') depth++;
    else if (depth > 0 && c === '}') depth--;
    else if (depth > 0 && c === '`') i = templateEnd(text, i + 1);
  }
  return text.length;
}

const BUILDER =
  /\b(?:selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|table)\(\s*'(\w+)/g;
const RAW_TAG = /\bsql(?:<[^>`]*>)?`/g;
const RAW_TABLE = /\b(?:from|join|into|update)\s+"?(\w+)"?/gi;

/** Every table the file's SQL names: builder calls with a literal table, and table words of raw `sql` text. */
function tablesNamed(source: string, tables: Set<string>): Set<string> {
  const text = stripComments(source);
  const named = new Set<string>();
  for (const m of text.matchAll(BUILDER)) if (tables.has(m[1]!)) named.add(m[1]!);
  for (const m of text.matchAll(RAW_TAG)) {
    const start = m.index + m[0].length;
    for (const t of text.slice(start, templateEnd(text, start)).matchAll(RAW_TABLE)) {
      if (tables.has(t[1]!.toLowerCase())) named.add(t[1]!.toLowerCase());
    }
  }
  return named;
}

const tables = new Set(Object.keys(TABLE_OWNERS));
const named = sourceFiles(SRC)
  .map((file) => relative(SRC, file))
  .filter((path) => !EXEMPT.some((prefix) => path.startsWith(prefix)))
  .map((path) => ({ path, tables: tablesNamed(readFileSync(join(SRC, path), 'utf8'), tables) }));

describe('table ownership', () => {
  it('every table of the database types has exactly one owner', () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(databaseTables().sort());
  });

  it('reads the SQL it checks', () => {
    const found = (path: string) => [...named.find((n) => n.path === path)!.tables].sort();
    expect(found('features/links/repo.ts')).toContain('links');
    expect(found('clicks/series-repo.ts')).toEqual(expect.arrayContaining(['account_days', 'click_hours', 'click_summaries']));
    expect(tablesNamed("db.selectFrom('links').leftJoin('domains as d', 'x', 'y')", tables)).toEqual(new Set(['links', 'domains']));
    expect(tablesNamed('sql`select 1 from ${sql`(select id from qr_codes)`} join links on x`', tables)).toEqual(new Set(['qr_codes', 'links']));
  });

  it('a module names only the tables it owns', () => {
    const foreign = named.flatMap(({ path, tables: used }) =>
      [...used].filter((table) => !path.startsWith(TABLE_OWNERS[table]!)).map((table) => `${path} names ${table} (owner: ${TABLE_OWNERS[table]})`),
    );
    expect(foreign).toEqual([]);
  });
});

/** Cache invalidation entry points → the owners whose write functions call them, so a new writer cannot forget. */
const INVALIDATORS: Record<string, Record<string, string[]>> = {
  'cache/public-cache.ts': {
    invalidateAddress: ['features/links', 'features/custom-pages'],
    invalidateRotator: ['features/campaigns'],
    invalidateDomain: ['features/domains'],
    invalidateQr: ['features/qr'],
  },
  'features/links/invalidate.ts': { '*': ['features/links'] },
};

const NAMED_IMPORT = /\b(?:import|export)\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(\.{1,2}\/[^']+)'/g;

describe('cache invalidation', () => {
  const uses = sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(NAMED_IMPORT)].flatMap((m) => {
      const from = relative(SRC, file);
      const to = relative(SRC, resolve(dirname(file), m[2]!.replace(/\.js$/, '.ts')));
      return m[1]!
        .split(',')
        .map((name) => ({
          from,
          to,
          name: name
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
        }))
        .filter((u) => u.name);
    }),
  );

  it('finds the invalidation calls it checks', () => {
    expect(uses).toContainEqual({ from: 'features/qr/service.ts', to: 'cache/public-cache.ts', name: 'invalidateQr' });
  });

  it('only the owner of the rows behind a cache key imports the function that drops it', () => {
    const wrong = uses.filter(({ from, to, name }) => {
      const owners = INVALIDATORS[to]?.[name] ?? INVALIDATORS[to]?.['*'];
      return owners !== undefined && from !== to && !owners.some((owner) => from.startsWith(owner));
    });
    expect(wrong.map(({ from, to, name }) => `${from} imports ${name} from ${to}`)).toEqual([]);
  });
});

describe('lib/ holds pure helpers', () => {
  /** Packages lib may use: computation only (hashing, address parsing, CSV text, schemas, user-agent parsing). */
  const PURE_PACKAGES = new Set(['node:crypto', 'node:net', 'csv-stringify', 'isbot', 'typebox', 'ua-parser-js']);
  const PACKAGE = /(?:\bfrom\s*|\bimport\s*\(?\s*)'([^.'][^']*)'/g;
  const libFiles = sourceFiles(join(SRC, 'lib')).map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }));

  it('imports no I/O, timers or services: those live in infra/', () => {
    const wrong = libFiles.flatMap(({ path, text }) =>
      [...text.matchAll(PACKAGE)]
        .map((m) => m[1]!)
        .filter((name) => !PURE_PACKAGES.has(name))
        .map((name) => `${path} imports ${name}`),
    );
    expect(libFiles.length).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  });

  it('keeps no mutable module state and schedules nothing', () => {
    const wrong = libFiles.filter(({ text }) => /^let\s|\bset(Timeout|Interval|Immediate)\(|\bprocess\.(env|on)\b/m.test(text)).map((f) => f.path);
    expect(wrong).toEqual([]);
  });
});
