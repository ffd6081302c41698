import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CachedDocument } from './cached-document.js';
import type { App } from './types.js';

/** Swagger UI's large files (1.5 MB of script and 0.4 MB more), which its static file server sends uncompressed. */
const LARGE_ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/**
 * Routes for the docs page's large assets, answered as the OpenAPI document is (br or gzip, strong ETag, 304),
 * each read and compressed once on its first request. They take precedence over the plugin's `static/*`.
 */
export function registerDocsAssets(app: App, prefix: string): void {
  const dir = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
  for (const [name, type] of Object.entries(LARGE_ASSETS)) {
    const document = new CachedDocument(type, () => readFileSync(join(dir, name)));
    app.get(`${prefix}/static/${name}`, { schema: { hide: true } }, (req, reply) =>
      document.send(req, reply.header('x-content-type-options', 'nosniff')),
    );
  }
}
