import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createContext, createLogger } from './context.js';

/** Starts Redirectory: listens on HOST:PORT, drains and flushes on SIGTERM/SIGINT. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  const ctx = await createContext(config, log);
  const app = await buildApp(ctx);
  await app.listen({ port: config.PORT, host: config.HOST });
  log.info({ baseUrl: config.BASE_URL, database: config.DIALECT }, 'Redirectory is serving');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'Redirectory is shutting down');
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
      await ctx.close(); // flushes pending clicks, then closes the database
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('Redirectory failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
