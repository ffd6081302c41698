import { LocalInvalidation } from './invalidation.js';

export const INVALIDATE_MESSAGE = 'redirectory:invalidate';

export interface InvalidateMessage {
  type: typeof INVALIDATE_MESSAGE;
  key: string;
}

export function isInvalidateMessage(message: unknown): message is InvalidateMessage {
  const m = message as InvalidateMessage | null;
  return typeof m === 'object' && m !== null && m.type === INVALIDATE_MESSAGE && typeof m.key === 'string';
}

/**
 * For the workers of one WORKERS=N server without Redis: a key published on one worker is delivered
 * there at once and sent to the primary, which hands it to every other worker (see src/cluster.ts).
 */
export class WorkerInvalidation extends LocalInvalidation {
  private readonly onMessage = (message: unknown) => {
    if (isInvalidateMessage(message)) this.deliver(message.key);
  };

  constructor() {
    super();
    process.on('message', this.onMessage);
  }

  override publish(key: string): void {
    this.deliver(key);
    process.send?.({ type: INVALIDATE_MESSAGE, key } satisfies InvalidateMessage);
  }

  override async close(): Promise<void> {
    process.off('message', this.onMessage);
  }
}
