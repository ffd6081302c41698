import type { Logger } from 'pino';

export type Send<A, B> = (a: A, b: B) => void;

/**
 * Answers that wait for the click journal's write of their event-loop turn (docs/decisions/0007-click-journal.md):
 * `(send, a, b)` triples in a reused array, so holding an answer allocates nothing; one `setImmediate` a
 * turn runs `beforeSend` (the journal write) and then sends them all.
 */
export class HeldAnswers {
  private held: unknown[] = [];
  private count = 0;
  private releasing: unknown[] = [];
  private scheduled = false;

  constructor(
    private readonly beforeSend: () => void,
    private readonly log: Logger,
  ) {}

  hold<A, B>(send: Send<A, B>, a: A, b: B): void {
    const at = this.count;
    this.held[at] = send;
    this.held[at + 1] = a;
    this.held[at + 2] = b;
    this.count = at + 3;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.endTurn);
  }

  private readonly endTurn = () => {
    this.scheduled = false;
    this.beforeSend();
    // Swapped first: an answer held while these are sent waits for the next turn's write.
    const held = this.held;
    const count = this.count;
    this.held = this.releasing;
    this.count = 0;
    this.releasing = held;
    for (let i = 0; i < count; i += 3) {
      try {
        (held[i] as Send<unknown, unknown>)(held[i + 1], held[i + 2]);
      } catch (err) {
        this.log.error({ err }, 'a held answer could not be sent');
      }
    }
    held.fill(undefined, 0, count); // the responses go; the array keeps its capacity for the next turn
  };
}
