export type Closer = () => Promise<void> | void;

/** What a process opened during start-up, closed on shutdown in the reverse order it was opened. */
export class Lifetime {
  private readonly closers: Closer[] = [];

  /** Registers the closer of something just opened. */
  onClose(closer: Closer): void {
    this.closers.push(closer);
  }

  /** Runs the closers last-in, first-out (clicks flush before the database closes); each runs once. */
  async close(): Promise<void> {
    for (const closer of this.closers.splice(0).reverse()) await closer();
  }

  /** Runs one start-up step; if it fails, what the steps before it opened is closed, so a failed start leaves no open handle. */
  async step<T>(run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      await this.close();
      throw err;
    }
  }
}
