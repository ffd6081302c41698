import type { AppContext } from '../../context.js';
import type { ImportJobRow } from '../../db/types.js';
import { AppError, fail } from '../../lib/errors.js';
import { formatTimestamp, nowTimestamp } from '../../lib/time.js';
import { resolveLinkDomain } from '../domains/service.js';
import * as repo from './import-repo.js';
import { MAX_REPORTED_ERRORS } from './import-schema.js';
import { importCsv, readFormat, type RowError } from './import-service.js';

/**
 * Import jobs: the file is imported in the background by the process that received it, and its progress
 * is written to import_jobs after every chunk, so any node answers its status. A job that has written
 * nothing for STALE_MS lost its process (a crash or a restart) and is reported failed.
 */
const STALE_MS = 10 * 60_000;

interface Running {
  stop: boolean;
  ended: Promise<void>;
}

/** Jobs running in this process, per context, stopped and awaited when it closes (before the database). */
const runningIn = new WeakMap<AppContext, Set<Running>>();

function track(ctx: AppContext, job: Running): void {
  let jobs = runningIn.get(ctx);
  if (!jobs) {
    const set = (jobs = new Set());
    runningIn.set(ctx, set);
    ctx.onClose(async () => {
      for (const running of set) running.stop = true;
      await Promise.all([...set].map((running) => running.ended));
    });
  }
  jobs.add(job);
  void job.ended.finally(() => jobs.delete(job));
}

const staleSince = () => formatTimestamp(new Date(Date.now() - STALE_MS));

export function jobView(job: ImportJobRow) {
  const lost = job.status === 'running' && job.updated_at < staleSince();
  return {
    id: job.id,
    status: lost ? 'failed' : job.status,
    format: job.format,
    total: job.total,
    done: job.done,
    failed: job.failed,
    errors: JSON.parse(job.errors) as RowError[],
    message: lost ? 'The import stopped with the server that ran it; the rows counted as done were imported.' : job.message,
    created: job.created_at,
    finished: job.finished_at,
  };
}

async function run(ctx: AppContext, id: number, userId: number, body: Buffer, domain: string | undefined, job: Running): Promise<void> {
  let errors: RowError[] = [];
  const update = (changes: Parameters<typeof repo.updateJob>[2]) => repo.updateJob(ctx.db, id, { ...changes, updated_at: nowTimestamp() });
  let end: { status: string; message: string };
  try {
    await importCsv(ctx, userId, body, {
      domain,
      stopped: () => job.stop,
      onTotal: (total) => update({ total }),
      onChunk: ({ done, failed, errors: more }) => {
        if (errors.length < MAX_REPORTED_ERRORS) errors = [...errors, ...more].slice(0, MAX_REPORTED_ERRORS);
        return update({ done, failed, errors: JSON.stringify(errors) });
      },
    });
    end = job.stop
      ? { status: 'failed', message: 'The server stopped before the import ended; the rows counted as done were imported.' }
      : { status: 'finished', message: '' };
  } catch (error) {
    if (!(error instanceof AppError)) ctx.log.error({ err: error, job: id }, 'import job failed');
    end = { status: 'failed', message: (error instanceof AppError ? error : fail('internal_error')).message };
  }
  await update({ ...end, finished_at: nowTimestamp() });
}

/** Checks the file's header (400s come before any job exists), records the job and starts it; answers at once. */
export async function startImport(ctx: AppContext, userId: number, body: Buffer, query: { domain?: string }) {
  const format = readFormat(body);
  const domain = query.domain?.trim() || undefined;
  if (domain) await resolveLinkDomain(ctx, userId, domain);
  const busy = await repo.runningJob(ctx.db, userId, staleSince());
  if (busy) throw fail('import_running', busy.id);
  const now = nowTimestamp();
  const id = await repo.insertJob(ctx.db, { user_id: userId, status: 'running', format: format.name, created_at: now, updated_at: now });
  const job: Running = { stop: false, ended: Promise.resolve() };
  job.ended = run(ctx, id, userId, body, domain, job).catch((error: unknown) => {
    ctx.log.error({ err: error, job: id }, 'could not record the end of an import job');
  });
  track(ctx, job);
  return getImport(ctx, userId, id);
}

export async function getImport(ctx: AppContext, userId: number, id: number) {
  const job = await repo.findJob(ctx.db, userId, id);
  if (!job) throw fail('not_found', 'Import');
  return jobView(job);
}
