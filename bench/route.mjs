// decide() alone, in nanoseconds a visit: the rules bench's routed links (bench/seed.mjs's six rules and 3-way split,
// each link's destinations its own) compiled as the cache compiles them, visited with the benchmark's headers as
// fresh strings (an HTTP parser's), each answer's rule interned as the click recorder interns it. A build's own dist/:
//   node bench/route.mjs [BUILD_DIR=.] [PREFIX=r]   (r routed, t targeted, d direct; env SHARED=1: every link one plan)
// env THRASH_KB: that many KB of other memory touched between visits, as a server's sockets and parser touch theirs
// (each visit then timed alone; a few hundred KB prices what a visit's reads miss in the CPU's caches, which the
// loop alone hides). Alternate builds run by run: the figure moves with the machine's load (p10 is the steadiest).
// env ROUTING: another routing column (JSON) for the r links, to price one rule kind or the split alone. Destinations
// are flat strings, as the URL parser gives the server, and each answer's Location is read to its end, as Node writes
// it: a string built by `+` (a cons string) or left unread priced a per-link destination wrongly.
import { join, resolve } from 'node:path';
import { IPS, LANGUAGES, USER_AGENTS } from './lib/browser.mjs';
import { ROUTING as BENCH_ROUTING } from './lib/routing.mjs';

const ROUTING = process.env.ROUTING ?? BENCH_ROUTING;
const build = resolve(process.argv[2] ?? '.');
const PREFIX = process.argv[3] ?? 'r';
const dist = (path) => import(join(build, 'dist', path));
const { compileRouting } = await dist('features/redirect/resolve/compile-routing.js');
const { linkOf } = await dist('features/redirect/resolve/compile.js');
const { decide } = await dist('features/redirect/decide/decide.js');
const { loadGeoDatabase } = await dist('infra/geo.js');
loadGeoDatabase();

const LINKS = 1000;
const N = 4096;
const ROUNDS = Number(process.env.ROUNDS ?? 300);
const THRASH_KB = Number(process.env.THRASH_KB ?? 0);
const META = { title: '', description: '', image: '' };
const plan = (i) => (PREFIX === 'r' ? compileRouting(ROUTING, (href) => new URL(`${href}#${i}`).href) : null);
const one = process.env.SHARED === '1' ? plan(0) : undefined;
const link = (i, expiresAt) =>
  linkOf(
    i + 1,
    1,
    `${PREFIX}${i}`,
    `http://bench.test/${PREFIX}${i}`,
    'direct',
    new URL(`https://example.com/${PREFIX}/${i}`).href,
    expiresAt,
    null,
    null,
    META,
    one ?? plan(i),
  );
// "Never expires" is null since the held-destinations change and 0 before it: whichever the build does not take as expired.
const probe = { userAgent: '', acceptLanguage: '', ip: '127.0.0.1', cookie: undefined, url: '/', now: Date.now() };
const NEVER = decide(link(0, null), probe, 'secret').status === 410 ? 0 : null;
const links = Array.from({ length: LINKS }, (_, i) => link(i, NEVER));
const buffers = (list) => list.map((s) => Buffer.from(s, 'latin1'));
const [agents, languages, ips] = [buffers(USER_AGENTS), buffers(LANGUAGES), buffers(IPS)];
let state = 1;
const pick = (n) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) % n;

function visits() {
  return Array.from({ length: N }, (_, i) => ({
    userAgent: agents[pick(agents.length)].latin1Slice(),
    acceptLanguage: languages[pick(languages.length)].latin1Slice(),
    ip: ips[pick(ips.length)].latin1Slice(),
    cookie: undefined,
    url: `/${PREFIX}${i % LINKS}`,
    now: Date.now(),
  }));
}

const junk = new Uint8Array(64 << 20);
let offset = 0;
function thrash() {
  for (let j = 0; j < THRASH_KB * 16; j++) junk[(offset + j * 64) % junk.length]++;
  offset = (offset + THRASH_KB * 1024) % junk.length;
}

/** One visit as the server makes it: decide, then the recorder's intern of the rule (a map per batch). */
function visit(batch, i, interned) {
  const decision = decide(links[pick(LINKS)], batch[i], 'secret');
  const location = decision.location;
  for (let j = 0; j < location.length; j++) sink ^= location.charCodeAt(j);
  if (decision.rule !== undefined && !interned.has(decision.rule)) interned.set(decision.rule, interned.size);
}

let sink = 0; // read at the end, so the Location reads are not optimized away
const ns = [];
for (let round = 0; round < ROUNDS; round++) {
  const batch = visits();
  const interned = new Map();
  let spent = 0n;
  if (THRASH_KB > 0) {
    for (let i = 0; i < N; i++) {
      thrash();
      const start = process.hrtime.bigint();
      visit(batch, i, interned);
      spent += process.hrtime.bigint() - start;
    }
  } else {
    const start = process.hrtime.bigint();
    for (let i = 0; i < N; i++) visit(batch, i, interned);
    spent = process.hrtime.bigint() - start;
  }
  ns.push(Number(spent) / N);
}
const timed = ns.slice(ROUNDS / 6).sort((a, b) => a - b);
const at = (q) => timed[Math.floor(q * (timed.length - 1))].toFixed(0);
const how = [one ? 'one shared plan' : '', THRASH_KB ? `${THRASH_KB} KB touched between visits` : ''].filter(Boolean).join(', ');
if (sink < 0) console.log(sink);
console.log(`decide ${PREFIX} ${build}${how ? ` (${how})` : ''}: ns a visit p10 ${at(0.1)} median ${at(0.5)}`);
