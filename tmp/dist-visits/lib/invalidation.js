export class LocalInvalidation {
    listeners = [];
    publish(key) {
        this.deliver(key);
    }
    subscribe(listener) {
        this.listeners.push(listener);
    }
    /** Delivers to this node's listeners only (used by transports that receive from other nodes). */
    deliver(key) {
        for (const listener of this.listeners)
            listener(key);
    }
    async close() { }
}
//# sourceMappingURL=invalidation.js.map