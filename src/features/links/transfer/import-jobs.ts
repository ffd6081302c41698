import type { AppContext } from '../../../context.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import type { ImportJobRow } from '../../../db/types.js';
import { AppError, fail } from '../../../lib/errors.js';
import { formatTimestamp, nowTimestamp } from '../../../lib/time.js';
import { resolveLinkDomain } from '../../domains/service.js';
import * as repo from './import-repo.js';
import { MAX_REPORTED_ERRORS } from './import-schema.js';
import { importCsv, readFormat, type RowError } from './import-service.js';

/**
 * Import jobs: the file is imported in the background by the process that received it, and its progress
 * is written to import_jobs at least every PROGRESS_MS, so any node answers its status. A job that has written
 * nothing for STALE_MS lost its process (a crash or a restart): it is reported failed, and marked so when
 * its account starts the next import (the database holds one running job per account).
 */
const STALE_MS = 10 * 60_000;
const PROGRESS_MS = 500;
const LOST = 'The import stopped with the server that ran it; the rows counted as done were imported.';

interface Running {
  stop: boolean;
  ended: Promise<void>;
}

/** The jobs running in this app, made by its import routes and stopped and awaited when it closes (before the database). */
export class RunningImports {
  private readonly jobs = new Set<Running>();

  track(job: Running): void {
    this.jobs.add(job);
    void job.ended.finally(() => this.jobs.delete(job));
  }

  async stop(): Promise<void> {
    for (const job of this.jobs) job.stop = true;
    await Promise.all([...this.jobs].map((job) => job.ended));
  }
}

const staleSince = () => formatTimestamp(new Date(Date.now() - STALE_MS));

export function jobView(job: ImportJobRow) {
  const lost = job.status === 'running' && job.updated_at < staleSince();
  return {
    id: job.id,
    status: lost ? 'failed' : job.status,
    format: job.format,
    total: job.total,
    processed: job.processed,
    done: job.done,
    failed: job.failed,
    errors: JSON.parse(job.errors) as RowError[],
    message: lost ? LOST : job.message,
    created: job.created_at,
    finished: job.finished_at,
  };
}

/** Writes progress at most every PROGRESS_MS (a file of tiny rows reads thousands per millisecond); `flush` writes what is left. */
function progressWriter(ctx: AppContext, id: number) {
  let last = 0;
  let pending: Parameters<typeof repo.updateJob>[2] = {};
  const write = async (changes: typeof pending) => {
    last = Date.now();
    pending = {};
    await repo.updateJob(ctx.db, id, { ...changes, updated_at: nowTimestamp() });
  };
  return {
    note: (changes: typeof pending) => {
      pending = { ...pending, ...changes };
      return Date.now() - last >= PROGRESS_MS ? write(pending) : undefined;
    },
    flush: (changes: typeof pending) => write({ ...pending, ...changes }),
  };
}

type JobQuery = { domain?: string; columns?: string };

async function run(ctx: AppContext, id: number, userId: number, body: Buffer, { domain, columns }: JobQuery, job: Running): Promise<void> {
  let errors: RowError[] = [];
  const progress = progressWriter(ctx, id);
  let end: { status: string; message: string };
  try {
    await importCsv(ctx, userId, body, {
      domain,
      columns,
      stopped: () => job.stop,
      onRead: (processed) => progress.note({ processed }),
      onTotal: (total) => progress.flush({ total, processed: total }),
      onChunk: ({ done, failed, errors: more }) => {
        if (errors.length < MAX_REPORTED_ERRORS) errors = [...errors, ...more].slice(0, MAX_REPORTED_ERRORS);
        return progress.note({ done, failed, errors: JSON.stringify(errors) });
      },
    });
    end = job.stop
      ? { status: 'failed', message: 'The server stopped before the import ended; the rows counted as done were imported.' }
      : { status: 'finished', message: '' };
  } catch (error) {
    if (!(error instanceof AppError)) ctx.log.error({ err: error, job: id }, 'import job failed');
    end = { status: 'failed', message: (error instanceof AppError ? error : fail('internal_error')).message };
  }
  await progress.flush({ ...end, finished_at: nowTimestamp() });
}

/** 409 while the account has a live import: checked before the file is read, and again by the database. */
export async function refuseWhileRunning(ctx: AppContext, userId: number): Promise<void> {
  const busy = await repo.runningJob(ctx.db, userId, staleSince());
  if (busy) throw fail('import_running', busy.id);
}

/** The job row, or 409 when the account's import is running: the database's unique index decides races. */
async function claimJob(ctx: AppContext, userId: number, format: string): Promise<number> {
  const now = nowTimestamp();
  await repo.failLostJobs(ctx.db, userId, staleSince(), { status: 'failed', message: LOST, finished_at: now });
  try {
    return await repo.insertJob(ctx.db, { user_id: userId, status: 'running', format, created_at: now, updated_at: now });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw fail('import_running', (await repo.runningJob(ctx.db, userId, ''))?.id ?? 0);
  }
}

/** Checks the file's header (400s come before any job exists), records the job and starts it; answers at once. */
export async function startImport(ctx: AppContext, running: RunningImports, userId: number, body: Buffer, query: JobQuery) {
  const format = readFormat(body, query.columns);
  const domain = query.domain?.trim() || undefined;
  if (domain) await resolveLinkDomain(ctx, userId, domain);
  const id = await claimJob(ctx, userId, format.name);
  const job: Running = { stop: false, ended: Promise.resolve() };
  job.ended = run(ctx, id, userId, body, { domain, columns: query.columns }, job).catch((error: unknown) => {
    ctx.log.error({ err: error, job: id }, 'could not record the end of an import job');
  });
  running.track(job);
  return getImport(ctx, userId, id);
}

export async function getImport(ctx: AppContext, userId: number, id: number) {
  const job = await repo.findJob(ctx.db, userId, id);
  if (!job) throw fail('not_found', 'Import');
  return jobView(job);
}
