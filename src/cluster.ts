import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { isInvalidateMessage } from './infra/worker-invalidation.js';
import { ClusterMetrics } from './infra/metrics/cluster.js';
import { listenForMetrics } from './infra/metrics/listener.js';
import { Lifetime } from './start/lifetime.js';
import { migrate, openDatabase, openRedis } from './start/steps.js';

/** A worker that dies on its own is replaced, but not more often than this. */
const RESTART_DELAY_MS = 1000;

/**
 * WORKERS=N: the primary migrates once, forks N workers sharing the port (node:cluster), relays cache
 * invalidations between them, and on SIGTERM/SIGINT lets each worker drain and flush, exiting with
 * the worst worker status.
 */
export async function runPrimary(config: Config, log: Logger): Promise<void> {
  await prepare(config, log);
  let stopping = false;
  let status = 0;
  // The workers' sum, for scrapes a worker received (METRICS_TOKEN) and for the primary's own METRICS_PORT.
  const metrics = config.METRICS ? new ClusterMetrics() : null;
  const fork = (): Worker => {
    const worker = cluster.fork();
    metrics?.serve(worker);
    worker.on('message', (message: unknown) => {
      if (!isInvalidateMessage(message)) return;
      for (const other of Object.values(cluster.workers ?? {})) if (other && other !== worker) other.send(message);
    });
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      // A worker still starting has no SIGTERM handler yet: ended by the signal, it had nothing to flush.
      status = Math.max(status, code ?? (signal === 'SIGTERM' ? 0 : 1));
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(status);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'Redirectory worker died; starting another');
    setTimeout(fork, RESTART_DELAY_MS);
  });
  for (let i = 0; i < config.WORKERS; i++) fork();
  if (metrics && config.METRICS_PORT !== undefined) await listenForMetrics(metrics, config.METRICS_HOST, config.METRICS_PORT, log);
  log.info({ workers: config.WORKERS }, 'Redirectory primary started its workers');
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'Redirectory is shutting down its workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * The primary's part of the start: migrations run here, once, before any worker starts; Redis is checked so a
 * wrong REDIS_URL stops the server at once rather than every worker in turn. Nothing stays open.
 */
async function prepare(config: Config, log: Logger): Promise<void> {
  const life = new Lifetime();
  try {
    await migrate(openDatabase(config, log, life));
    await openRedis(config, log, life);
  } finally {
    await life.close();
  }
}
