import { LocalInvalidation } from './invalidation.js';
export const INVALIDATE_MESSAGE = 'redirectory:invalidate';
export function isInvalidateMessage(message) {
    const m = message;
    return typeof m === 'object' && m !== null && m.type === INVALIDATE_MESSAGE && typeof m.key === 'string';
}
/**
 * For the workers of one WORKERS=N server without Redis: a key published on one worker is delivered
 * there at once and sent to the primary, which hands it to every other worker (see src/cluster.ts).
 */
export class WorkerInvalidation extends LocalInvalidation {
    onMessage = (message) => {
        if (isInvalidateMessage(message))
            this.deliver(message.key);
    };
    constructor() {
        super();
        process.on('message', this.onMessage);
    }
    publish(key) {
        this.deliver(key);
        process.send?.({ type: INVALIDATE_MESSAGE, key });
    }
    async close() {
        process.off('message', this.onMessage);
    }
}
//# sourceMappingURL=worker-invalidation.js.map