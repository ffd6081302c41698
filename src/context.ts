import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db, DbHandle } from './db/connect.js';
import { createLogger } from './infra/log.js';
import { Lifetime } from './start/lifetime.js';
import { buildServices, loadSecret, migrate, openDatabase, startBackgroundWork, type Services } from './start/steps.js';

/** Everything a service needs, built once per process and shared by the HTTP app and the CLI. */
export interface AppContext extends Services {
  config: Config;
  db: Db;
  dbHandle: DbHandle;
  /** Signs cookies and salts visitor hashes; shared by all nodes through the settings table. */
  secret: string;
  log: Logger;
  /** Closes what the start opened, in reverse order: pending clicks are written before the database closes. */
  close(): Promise<void>;
}

/** The CLI's context: database, migrations, secret and services (start/steps.ts), without background work. */
export async function openContext(config: Config, log: Logger, life = new Lifetime()): Promise<AppContext> {
  const dbHandle = openDatabase(config, log, life);
  await life.step(() => migrate(dbHandle));
  const secret = await life.step(() => loadSecret(config, dbHandle.db));
  const services = await life.step(() => buildServices(config, log, dbHandle, secret, life));
  return { config, db: dbHandle.db, dbHandle, secret, log, ...services, close: () => life.close() };
}

/** A serving node's context (server.ts, the tests): the CLI's, plus the background work (start/steps.ts). */
export async function createContext(config: Config, log: Logger = createLogger(config)): Promise<AppContext> {
  const life = new Lifetime();
  const ctx = await openContext(config, log, life);
  startBackgroundWork(config, ctx.db, log, life);
  return ctx;
}
