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

/**
 * The items a job has started and not yet finished, across its rounds: a round starts items in the free
 * slots and waits for them at most a round's time, so one slow item never holds the next round back; it
 * keeps its slot (and its lease in the database) until it ends, so it is never started twice.
 */
export class InFlight {
  private readonly running = new Set<Promise<void>>();

  constructor(
    readonly slots: number,
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  get free(): number {
    return Math.max(0, this.slots - this.running.size);
  }

  /** Starts one item; its failure is logged, never thrown to the round. */
  start(work: () => Promise<unknown>): Promise<void> {
    const item: Promise<void> = work()
      .then(() => undefined)
      .catch((err: unknown) => this.log.warn({ err }, `${this.what} item failed; retrying later`))
      .finally(() => this.running.delete(item));
    this.running.add(item);
    return item;
  }

  /** Answers once `items` have all ended or `ms` has passed, whichever is first. */
  async settle(items: Array<Promise<void>>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    try {
      await Promise.race([Promise.all(items), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answers once every item started has ended (shutdown, after their requests were cut short). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
