import { Lane } from '../../../infra/lane.js';
import { AppError, fail } from '../../../lib/errors.js';

/**
 * Bulk jobs (`urls/bulk`, `urls/bulk/apply`) in one process: each yields the event loop every few ms, but the
 * slices of every running job run back to back in one turn, so at most `slots` run at once and the others wait
 * their turn in order (at most `waiting`). An account has one job at a time: its second one, or one past the
 * waiting places, is refused with 429 `bulk_busy` rather than queued.
 */
export class BulkGate {
  private readonly accounts = new Set<number>();
  private readonly lane: Lane;

  constructor(slots = 2, waiting = 64) {
    this.lane = new Lane(slots, waiting);
  }

  async run<T>(userId: number, job: () => Promise<T>): Promise<T> {
    const turn = this.accounts.has(userId) ? undefined : this.lane.tryRun(job);
    if (!turn) throw busy();
    this.accounts.add(userId);
    try {
      return await turn;
    } finally {
      this.accounts.delete(userId);
    }
  }
}

function busy(): AppError {
  const error = fail('bulk_busy');
  return new AppError(error.code, error.status, error.message, 1);
}
