import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer | undefined;
let databaseCut = false;
afterEach(async () => {
  // Closing a database that was already cut off underneath may throw; the harness still cleans up.
  await server?.close().catch((err: unknown) => {
    if (!databaseCut) throw err;
  });
  server = undefined;
});

it('answers /health without touching anything and /ready after checking the database and Redis', async () => {
  server = await startServer();
  const health = await server.call('GET', '/health');
  expect(health.status).toBe(200);
  expect(health.body).toEqual({ status: 'ok' });
  const ready = await server.call('GET', '/ready');
  expect(ready.status).toBe(200);
  expect(ready.body).toEqual({ status: 'ok', database: 'ok', redis: server.config.REDIS_URL ? 'ok' : 'unused' });
  expect(health.headers['x-ratelimit-limit']).toBeUndefined(); // probes are not API calls
});

it('answers /ready with 503 while the database is unreachable, and /health stays 200', async () => {
  server = await startServer();
  const { sqlite, pool } = server.ctx.dbHandle;
  databaseCut = true;
  if (sqlite) sqlite.close();
  if (pool) await pool.end();
  const ready = await server.call('GET', '/ready');
  expect(ready.status).toBe(503);
  expect(ready.body).toMatchObject({ status: 'unavailable', database: 'unreachable' });
  expect((await server.call('GET', '/health')).status).toBe(200);
});
