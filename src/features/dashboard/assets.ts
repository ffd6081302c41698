import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** The built dashboard (vite build + web/build.mjs): from src/features/dashboard and dist/features/dashboard alike. */
export const WEB_ROOT = join(import.meta.dirname, '..', '..', '..', 'dist', 'web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** One built file with the precompressed copies the build wrote beside it. */
export interface Asset {
  type: string;
  /** Hashed file names never change content: cached for a year. index.html is revalidated. */
  immutable: boolean;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

const read = (path: string): Buffer | undefined => {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
};

/**
 * Every file of the built dashboard by its URL path under /app (`index.html`, `assets/x-Hash.js`), read
 * once: the whole app is a few hundred kilobytes. Null when the dashboard was never built.
 */
export function loadAssets(root = WEB_ROOT): Map<string, Asset> | null {
  let files: string[];
  try {
    files = walk(root).filter((path) => !path.endsWith('.gz') && !path.endsWith('.br'));
  } catch {
    return null;
  }
  const assets = new Map<string, Asset>();
  for (const path of files) {
    const name = relative(root, path).split(sep).join('/');
    assets.set(name, {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      immutable: name.startsWith('assets/'),
      identity: readFileSync(path),
      gzip: read(`${path}.gz`),
      br: read(`${path}.br`),
    });
  }
  return assets.has('index.html') ? assets : null;
}

/** The smallest encoding the client accepts: brotli, then gzip, else the file itself. */
export function pickEncoding(asset: Asset, acceptEncoding: string): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const accepts = (name: string) => new RegExp(`(^|[,\\s])${name}(?!;q=0(\\.0*)?(,|$))`, 'i').test(acceptEncoding);
  if (asset.br && accepts('br')) return { body: asset.br, encoding: 'br' };
  if (asset.gzip && accepts('gzip')) return { body: asset.gzip, encoding: 'gzip' };
  return { body: asset.identity };
}
