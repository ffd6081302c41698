// route() alone, in nanoseconds a visit: the rules bench's routing (bench/seed.mjs's six rules and 3-way split)
// compiled for 1000 links as the cache compiles them, visited with the benchmark's headers as fresh strings (an
// HTTP parser's), the user agent hashed first as the crawler check does. A build's own dist/:
//   node bench/route.mjs [BUILD_DIR=.]      (env SHARED=1: every link the same compiled plan)
// Alternate builds run by run: the figure moves with the machine's load (p10 is the steadiest).
import { join, resolve } from 'node:path';
import { IPS, LANGUAGES, USER_AGENTS } from './lib/browser.mjs';
import { ROUTING } from './lib/routing.mjs';

const build = resolve(process.argv[2] ?? '.');
const { compileRouting } = await import(join(build, 'dist/features/redirect/resolve/compile-routing.js'));
const { route } = await import(join(build, 'dist/features/redirect/decide/routing.js'));
const { isSocialCrawler } = await import(join(build, 'dist/features/redirect/decide/decide.js'));
const { loadGeoDatabase } = await import(join(build, 'dist/infra/geo.js'));
loadGeoDatabase();

const LINKS = 1000;
const N = 4096;
const ROUNDS = 300;
const one = process.env.SHARED === '1' ? compileRouting(ROUTING, (href) => href) : null;
const plans = Array.from({ length: LINKS }, (_, i) => one ?? compileRouting(ROUTING, (href) => `${href}#${i}`));
const buffers = (list) => list.map((s) => Buffer.from(s, 'latin1'));
const [agents, languages, ips] = [buffers(USER_AGENTS), buffers(LANGUAGES), buffers(IPS)];
let state = 1;
const pick = (n) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) % n;

function visits() {
  return Array.from({ length: N }, (_, i) => {
    const visit = {
      userAgent: agents[pick(agents.length)].latin1Slice(),
      acceptLanguage: languages[pick(languages.length)].latin1Slice(),
      ip: ips[pick(ips.length)].latin1Slice(),
      url: `/r${i % LINKS}`,
      now: Date.now(),
    };
    isSocialCrawler(visit.userAgent);
    return visit;
  });
}

const ns = [];
for (let round = 0; round < ROUNDS; round++) {
  const batch = visits();
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) route(plans[pick(LINKS)], null, batch[i]);
  ns.push(Number(process.hrtime.bigint() - start) / N);
}
const timed = ns.slice(ROUNDS / 6).sort((a, b) => a - b);
const at = (q) => timed[Math.floor(q * (timed.length - 1))].toFixed(0);
console.log(`route ${build}${one ? ' (one shared plan)' : ''}: ns a visit p10 ${at(0.1)} median ${at(0.5)}`);
