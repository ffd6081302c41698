import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { Logger } from 'pino';

/** What a scrape answers: one process's registry, or the cluster's sum. */
export interface MetricsSource {
  text(): Promise<string>;
  readonly contentType: string;
}

/**
 * METRICS_PORT: a listener of its own that answers GET /metrics without a token, for a scraper on a private
 * network (METRICS_HOST, loopback by default); every other request answers 404. Resolves once listening.
 */
export async function listenForMetrics(source: MetricsSource, host: string, port: number, log: Logger): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    source.text().then(
      (text) => res.writeHead(200, { 'content-type': source.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        log.error({ err }, 'metrics could not be gathered');
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
      },
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  log.info({ host, port }, 'Redirectory metrics are served on their own port');
  return server;
}

export function closeListener(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
