import { AppError, fail } from '../../../lib/errors.js';

/**
 * Bulk jobs (`urls/bulk`, `urls/bulk/apply`) in one process: each yields the event loop every few ms, but the
 * slices of every running job run back to back in one turn, so at most `slots` run at once and the others wait
 * their turn in order (at most `waiting`). An account has one job at a time: its second one, or one past the
 * waiting places, is refused with 429 `bulk_busy` rather than queued.
 */
export class BulkGate {
  private readonly accounts = new Set<number>();
  private readonly queue: Array<() => void> = [];
  private running = 0;

  constructor(
    private readonly slots = 2,
    private readonly waiting = 64,
  ) {}

  async run<T>(userId: number, job: () => Promise<T>): Promise<T> {
    if (this.accounts.has(userId) || (this.running >= this.slots && this.queue.length >= this.waiting)) throw busy();
    this.accounts.add(userId);
    try {
      if (this.running >= this.slots) await new Promise<void>((resolve) => this.queue.push(resolve));
      else this.running++;
      try {
        return await job();
      } finally {
        const next = this.queue.shift();
        if (next)
          next(); // the slot passes on as it is
        else this.running--;
      }
    } finally {
      this.accounts.delete(userId);
    }
  }
}

function busy(): AppError {
  const error = fail('bulk_busy');
  return new AppError(error.code, error.status, error.message, 1);
}
