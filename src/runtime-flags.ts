import { executionAsyncResource } from 'node:async_hooks';
import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the serving process, imported by server.ts before anything else is evaluated.
 * Pretenuring off: otherwise some starts keep allocating Node's short-lived per-request objects in the
 * old generation for good (docs/performance.md#pretenuring).
 */
setFlagsFromString('--no-allocation-site-pretenuring');

/**
 * Scavenges on the thread that allocated, without V8's helper threads: a young generation of a few
 * megabytes is collected faster than the helpers are woken and joined on two cores (docs/performance.md#serial-scavenge).
 */
setFlagsFromString('--no-parallel-scavenge');

/**
 * One of `process.nextTick`'s tick objects, kept for the life of the process. V8 remembers the maps of
 * that literal's computed-key stores weakly: a full collection while no tick object is alive frees them,
 * the next tick then meets a new map, and from then on every tick defines its keys in V8's runtime
 * (docs/performance.md#tick-object-maps). A live tick object keeps its maps.
 */
const kept: object[] = [];
process.nextTick(() => kept.push(executionAsyncResource()));
