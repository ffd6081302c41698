import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from 'undici';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import { createUser, type CreatedUser } from '../../src/features/account/service.js';
import type { App } from '../../src/http/types.js';
import { createTestSchema, deleteRedisPrefix, isPostgresUrl, uniqueName } from './services.js';

/** The default domain of test servers; public requests send it as Host. */
export const TEST_HOST = 'redirectory.test';

export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  config: Config;
  ctx: AppContext;
  app: App;
  /** Calls the API through real HTTP; JSON bodies are parsed when they are JSON. */
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<Reply<T>>;
  /** A public request (no API key) with Host set to the default domain unless given. */
  visit(path: string, options?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Reply<string>>;
  user(email?: string): Promise<CreatedUser>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * Starts a real Redirectory server on a random port with a fresh database: a new SQLite file, or with
 * DATABASE_URL=postgres://… a new schema in that database, dropped on close. With REDIS_URL each server
 * gets its own REDIS_PREFIX, so parallel test files never share rate-limit windows or invalidations.
 * Env overrides go through the same config loader as production. `port` listens there instead of a random
 * port, for a server whose BASE_URL is its own address (tests/helpers/browser.ts); `log` receives the server's
 * log lines (JSON, one a line) at LOG_LEVEL.
 */
export async function startServer(env: Record<string, string> = {}, listen: { port?: number; log?: Writable } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'redirectory-test-'));
  const name = uniqueName();
  const pgBase = process.env.DATABASE_URL;
  const schema = !env.DATABASE_URL && isPostgresUrl(pgBase) ? await createTestSchema(pgBase, name) : undefined;
  const config = loadConfig({
    DATABASE_URL: schema?.url ?? pgBase ?? `sqlite:${join(dir, 'test.db')}`,
    REDIS_URL: process.env.REDIS_URL,
    REDIS_PREFIX: `${name}:`,
    BASE_URL: `http://${TEST_HOST}`,
    LOG_LEVEL: 'silent',
    CLICK_FLUSH_MS: '50',
    // No background link checks: the suite's links point at the internet (tests/link-health.test.ts runs its checker itself).
    HEALTH_INTERVAL_S: '0',
    ...env,
  });
  const ctx = await createContext(config, listen.log ? pino({ level: config.LOG_LEVEL }, listen.log) : pino({ level: config.LOG_LEVEL })).catch(
    async (err: unknown) => {
      await schema?.drop();
      throw err;
    },
  );
  const app = await buildApp(ctx);
  await app.listen({ port: listen.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const call: TestServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization ??= `Bearer ${options.key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return send(url, method, path, headers, body);
  };
  const visit: TestServer['visit'] = (path, options = {}) =>
    send(url, options.method ?? 'GET', path, { host: TEST_HOST, ...options.headers }, options.body);

  return {
    url,
    config,
    ctx,
    app,
    call,
    visit,
    user: (email) => createUser(ctx, { email: email ?? `user${process.pid}x${++counter}@example.com` }),
    close: async () => {
      try {
        await app.close();
        if (ctx.redis?.status === 'ready') await deleteRedisPrefix(ctx.redis, config.REDIS_PREFIX);
        await ctx.close();
      } finally {
        await schema?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  const type = String(res.headers['content-type'] ?? '');
  let parsed: unknown = text;
  if (type.includes('json') && text) parsed = JSON.parse(text);
  return { status: res.statusCode, headers: res.headers, body: parsed, text };
}
