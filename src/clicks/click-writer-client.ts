import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { BatchWriter } from './batch-writers.js';
import type { VisitBatch } from './visit-columns.js';
import type { WriterReply, WriterRequest, WriterThreadData } from './click-writer-thread.js';
import { clickBatchHooks } from './batch-hooks.js';

// Compiled, the thread is a .js file beside this one; under the TypeScript sources (tests, the CLI) it
// is the .ts file, loaded through tsx.
const SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(`./click-writer-thread.${SOURCE ? 'ts' : 'js'}`, import.meta.url);

/** Node 20 applies no --import hooks to a worker's entry: under the sources, tsx is registered first. */
function spawnThread(data: WriterThreadData): Worker {
  // A batch is at most CLICK_BATCH_MAX visits: a small old generation keeps the thread from growing the
  // process by a heap of its own, and a young one that holds a batch's garbage spares most scavenges
  // (docs/performance.md#writer-young-generation).
  const resourceLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 32 };
  if (!SOURCE) return new Worker(ENTRY, { workerData: data, resourceLimits });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(ENTRY.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data, resourceLimits });
}

interface Waiting {
  resolve(ms?: number): void;
  reject(error: Error): void;
}

/**
 * Hands each batch to the writer thread and resolves when it is committed. A thread that dies fails
 * the batches it held (the recorder puts them back and retries) and is started again on the next batch.
 */
export function threadBatchWriter(data: WriterThreadData, log: Logger): BatchWriter {
  let worker: Worker | null = null;
  /** The hook modules the running thread loaded. */
  let loaded: string[] = [];
  let next = 0;
  const waiting = new Map<number, Waiting>();

  const start = () => {
    loaded = clickBatchHooks().modules;
    const thread = spawnThread({ ...data, hooks: loaded });
    thread.on('message', ({ id, error, ms }: WriterReply) => {
      const entry = waiting.get(id);
      waiting.delete(id);
      if (error) entry?.reject(new Error(error));
      else entry?.resolve(ms);
    });
    const fail = (error: Error) => {
      if (worker === thread) worker = null;
      for (const entry of waiting.values()) entry.reject(error);
      waiting.clear();
    };
    thread.on('error', (error) => {
      log.error({ err: error }, 'click writer thread failed');
      fail(error);
    });
    thread.on('exit', (code) => fail(new Error(`click writer thread exited with ${code}`)));
    return thread;
  };

  return {
    write: (batch: VisitBatch) =>
      new Promise<number | void>((resolve, reject) => {
        // A thread started before the app plugged its hooks in (a journal replayed at start) makes way for one with them.
        if (worker && waiting.size === 0 && loaded.join() !== clickBatchHooks().modules.join()) {
          const old = worker;
          worker = null;
          old.removeAllListeners();
          void old.terminate();
        }
        worker ??= start();
        const id = ++next;
        waiting.set(id, { resolve, reject });
        // Copied, not transferred: a batch that fails is written again.
        worker.postMessage({ id, batch } satisfies WriterRequest);
      }),
    close: async () => {
      const thread = worker;
      worker = null;
      if (thread) await thread.terminate();
    },
  };
}
