import { AppError, fail } from '../../../lib/errors.js';

/**
 * One bulk job (`urls/bulk`, `urls/bulk/apply`) per account at a time in each process: a second one of the same
 * account is refused with 429 `bulk_busy` rather than queued, so one account's jobs cannot pile up on the event
 * loop beside everyone's redirects; other accounts' jobs run beside it.
 */
export class BulkGate {
  private readonly running = new Set<number>();

  async run<T>(userId: number, job: () => Promise<T>): Promise<T> {
    if (this.running.has(userId)) {
      const busy = fail('bulk_busy');
      throw new AppError(busy.code, busy.status, busy.message, 1);
    }
    this.running.add(userId);
    try {
      return await job();
    } finally {
      this.running.delete(userId);
    }
  }
}
