import { randomUUID } from 'node:crypto';
import { LocalInvalidation } from './invalidation.js';
import { closeRedis, duplicateRedis } from './redis.js';
/**
 * Invalidation across nodes over Redis pub/sub. A key published here reaches this node's listeners at
 * once (before the writer's response leaves) and every other node's within the pub/sub round trip.
 * Messages are `<nodeId> <key>`; a node ignores its own echo since it already delivered locally.
 *
 * Pub/sub is fire-and-forget: a node whose subscriber is disconnected misses what was published
 * meanwhile and converges only when its cached entries expire (LINK_CACHE_TTL_S). The outage is logged.
 */
export class RedisInvalidation {
    publisher;
    subscriber;
    channel;
    log;
    local = new LocalInvalidation();
    nodeId = randomUUID();
    constructor(publisher, subscriber, channel, log) {
        this.publisher = publisher;
        this.subscriber = subscriber;
        this.channel = channel;
        this.log = log;
        subscriber.on('message', (from, message) => {
            if (from === channel)
                this.receive(message);
        });
    }
    /** Subscribes on a connection of its own; `publisher` is the node's shared command connection. */
    static async start(publisher, prefix, log) {
        const subscriber = await duplicateRedis(publisher, log, 'invalidation subscriber');
        const channel = `${prefix}invalidate`;
        try {
            await subscriber.subscribe(channel);
        }
        catch (err) {
            subscriber.disconnect();
            throw err;
        }
        return new RedisInvalidation(publisher, subscriber, channel, log);
    }
    publish(key) {
        this.local.deliver(key);
        this.publisher.publish(this.channel, `${this.nodeId} ${key}`).catch((err) => {
            this.log.error({ err, key }, 'could not publish a cache invalidation; other nodes serve it until it expires');
        });
    }
    subscribe(listener) {
        this.local.subscribe(listener);
    }
    receive(message) {
        const space = message.indexOf(' ');
        if (space < 0 || message.slice(0, space) === this.nodeId)
            return;
        this.local.deliver(message.slice(space + 1));
    }
    async close() {
        await closeRedis(this.subscriber);
    }
}
//# sourceMappingURL=redis-invalidation.js.map