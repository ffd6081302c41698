import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long work on the event loop's thread (an import's millions of rows) calls `turn()` between small steps:
 * once `budgetMs` of work has run since the last turn, it lets the loop answer what waits (requests,
 * timers, I/O) before going on, so the work never holds the thread much longer than the budget.
 */
export class Pacer {
  private since = performance.now();

  constructor(private readonly budgetMs = 4) {}

  async turn(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return;
    await nextTurn();
    this.since = performance.now();
  }
}
