import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the serving process, imported by server.ts before anything else is evaluated.
 *
 * Allocation-site pretenuring off: V8 allocates objects of a site straight into the old generation
 * once most of them survived a young collection. Under load a site of Node's own per-request HTTP
 * objects sometimes (about one start in four or five) crosses that bar and stays there although its
 * objects die within the request. From then on the old generation fills with garbage at the request rate
 * and is marked every second or so: RSS at 1M links went from ~245 to ~340 MB, and throughput at 1k links
 * from ~38k to ~30k req/s, both for the life of the process (4 of 21 starts at 1M links). With it off,
 * by this call or on the command line, 22 of 22 starts stayed in the good state.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
