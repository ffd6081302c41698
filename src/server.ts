// First: V8 flags must be set before the modules below allocate and run.
import './runtime-flags.js';
import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { runPrimary } from './cluster.js';
import { loadConfig } from './config.js';
import { createContext } from './context.js';
import { createLogger } from './infra/log.js';
import type { App } from './http/types.js';

/** Longest wait for requests in flight, so clicks are flushed before a 10 s stop grace runs out. */
const DRAIN_TIMEOUT_MS = 8000;
/** The stated bound on a shutdown: past it the process exits anyway (what it had not flushed is in the click journal). */
const STOP_BOUND_MS = 9500;

/** Starts Redirectory: listens on HOST:PORT, drains and flushes on SIGTERM/SIGINT. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  if (config.WORKERS > 1 && cluster.isPrimary) return runPrimary(config, log);
  const ctx = await createContext(config, log);
  const app = await buildApp(ctx);
  await app.listen({ port: config.PORT, host: config.HOST });
  log.info({ baseUrl: config.BASE_URL, database: config.DIALECT }, 'Redirectory is serving');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'Redirectory is shutting down');
    setTimeout(() => {
      log.error({ boundMs: STOP_BOUND_MS }, 'shutdown overran its bound; exiting');
      process.exit(1);
    }, STOP_BOUND_MS).unref();
    try {
      await drain(app);
      await ctx.close(); // flushes pending clicks, then closes the database
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // A worker's SIGINT (Ctrl-C reaches the whole process group) is left to the primary, which sends SIGTERM.
  process.on('SIGINT', () => void (cluster.isWorker || stop('SIGINT')));
}

/**
 * Stops accepting connections and lets requests in flight finish. Node's server.close() waits for every
 * open connection, and a load balancer keeps its upstream connections alive: so connections are closed
 * as soon as they go idle (each right after its last response), and all of them past the deadline.
 */
async function drain(app: App): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => app.server.closeAllConnections(), DRAIN_TIMEOUT_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

main().catch((err: unknown) => {
  console.error('Redirectory failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
