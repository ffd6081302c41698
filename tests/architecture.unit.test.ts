import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports run one way: features → http / cache → context / clicks → db / config → lib. This reads every
 * import of src/ (static, `export … from` and dynamic) and fails on any that points back up.
 */
const SRC = resolve(import.meta.dirname, '../src');

/** Which folders each layer may import from (besides itself); features are checked on their own below. */
const ALLOWED: Record<string, string[]> = {
  // The public cache's one owner: every writing service calls it after its write.
  cache: ['lib', 'db', 'config.ts', 'context.ts'],
  lib: [],
  db: ['lib'],
  'config.ts': ['lib'],
  clicks: ['lib', 'db', 'config.ts'],
  'context.ts': ['lib', 'db', 'config.ts', 'clicks'],
  http: ['lib', 'db', 'config.ts', 'context.ts'],
  features: ['lib', 'db', 'config.ts', 'context.ts', 'clicks', 'cache', 'http', 'features'],
};

interface Edge { from: string; to: string }

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
