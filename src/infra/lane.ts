/**
 * Work that runs off the event loop but takes a core each (argon2 hashes, bulk calls' slices): `slots` run at a
 * time and up to `waiting` more wait their turn in order; past that `tryRun` refuses without starting anything.
 */
export class Lane {
  private busy = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly slots: number,
    private readonly waiting = Infinity,
  ) {}

  /** Runs `work` in its turn; undefined (and nothing started) when every slot and waiting place is taken. */
  tryRun<T>(work: () => Promise<T>): Promise<T> | undefined {
    if (this.busy >= this.slots && this.queue.length >= this.waiting) return undefined;
    return this.run(work);
  }

  /** Waits for a slot however long the queue (the caller bounds what it sends). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy >= this.slots) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.busy++;
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next)
        next(); // the slot passes on as it is
      else this.busy--;
    }
  }
}
