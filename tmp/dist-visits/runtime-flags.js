import { setFlagsFromString } from 'node:v8';
/**
 * V8 settings of the serving process, imported by server.ts before anything else is evaluated.
 * Pretenuring off: otherwise some starts keep allocating Node's short-lived per-request objects in the
 * old generation for good (docs/performance.md#pretenuring).
 */
setFlagsFromString('--no-allocation-site-pretenuring');
//# sourceMappingURL=runtime-flags.js.map