import type { Logger } from 'pino';

/** What a background job does each round, and how long it rests between rounds. */
export interface RoundsJob {
  /** One round; answers how many items it handled. */
  round: () => Promise<number>;
  /** A round that handled this many may have left more due: the next one starts at once. */
  batch: number;
  /** The rest after a round that was not full, before its third of jitter. */
  pauseMs: () => number;
  log: Logger;
  /** Names the job in the warning a failed round logs. */
  what: string;
}

/**
 * A background job's rounds, one at a time, off the request path (the link checker, the webhook sender):
 * back to back while rounds come back full, then a pause with jitter so nodes do not poll in step. A failed
 * round is logged and retried after the pause. The timer never keeps the process alive.
 */
export class Rounds {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly job: RoundsJob) {}

  /** Whether close() was called: work in flight checks it before recording what a cut-short request saw. */
  get closed(): boolean {
    return this.stopped;
  }

  /** The first round after `firstMs` (a no-op once started or closed). */
  start(firstMs: number): void {
    if (!this.stopped && this.timer === undefined && !this.running) this.schedule(firstMs);
  }

  /** No round starts after this; answers when the one in flight, if any, has ended. */
  close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.running ?? Promise.resolve();
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.loop().finally(() => (this.running = undefined));
    }, ms);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    let handled = 0;
    try {
      handled = await this.job.round();
    } catch (err) {
      if (!this.stopped) this.job.log.warn({ err }, `${this.job.what} round failed; retrying later`);
    }
    if (!this.stopped) this.schedule(handled >= this.job.batch ? 0 : this.job.pauseMs() * (2 / 3 + Math.random() / 3));
  }
}
