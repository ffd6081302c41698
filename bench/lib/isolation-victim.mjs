// The other account's view during an isolation flood (bench/isolation.mjs), in a process of its own so the
// flooding client's work is not measured: account B has a fast receiver (its webhook, and its link's
// destination), makes an event every INTERVAL_MS (a link created, or a visit to its link: link.clicked) and
// asks for a check of its link halfway. Each event's delivery time runs from just before the request that
// makes it to its arrival at the receiver; an event not delivered by DRAIN_MS after the flood counts as
// delivered then (a floor). Prints `ready` once set up, then one JSON line at the end.
// node bench/lib/isolation-victim.mjs PORT KEY DURATION_MS DRAIN_MS INTERVAL_MS
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { api, call } from './call.mjs';
import { BENCH_HOST } from './proc.mjs';

const [port, durationMs, drainMs, intervalMs] = [2, 4, 5, 6].map((i) => Number(process.argv[i]));
const key = process.argv[3];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
/** Pending events: link.created by link id, visits of B's link (oldest first, with the wall clock too); each with when it was made. */
const created = new Map();
const early = new Map();
const visits = [];
const times = [];

/** Objects with a numeric `id` anywhere in an event's data, with their `clicks` when they have one. */
function mentioned(data, found = []) {
  if (Array.isArray(data)) for (const d of data) mentioned(d, found);
  else if (data && typeof data === 'object') {
    if (typeof data.id === 'number') found.push({ id: data.id, clicks: typeof data.clicks === 'number' ? data.clicks : undefined });
    for (const v of Object.values(data)) if (v && typeof v === 'object') mentioned(v, found);
  }
  return found;
}

/** A delivery arrived: the events it carries are done. link.clicked carries a count (one visit when it does not say). */
function arrived(body, link) {
  const now = performance.now();
  let event;
  try {
    event = JSON.parse(body);
  } catch {
    return;
  }
  const items = mentioned(event.data);
  if (event.event === 'link.clicked') {
    // The clicks it counts for B's link, and at least every visit made before the second its batch was written.
    const counted = items.filter((i) => i.id === link).reduce((n, i) => n + (i.clicks ?? 0), 0);
    const written = Date.parse(`${String(event.created).replace(' ', 'T')}Z`);
    const before = visits.filter((v) => v.wall < written).length;
    for (const v of visits.splice(0, Math.max(counted, before, 1))) times.push(now - v.at);
    return;
  }
  for (const { id } of items) {
    if (!created.has(id))
      early.set(id, now); // delivered before its link's answer was read
    else {
      times.push(now - created.get(id));
      created.delete(id);
    }
  }
}

const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'POST') arrived(Buffer.concat(chunks).toString('utf8'), receiver.linkId);
    res.end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const here = `http://127.0.0.1:${receiver.address().port}`;
const link = await api(port, key, 'POST', '/api/url/add', { url: `${here}/destination` });
const hook = await api(port, key, 'POST', '/api/webhook/add', { url: `${here}/hook`, events: ['link.created', 'link.clicked'] });
if (!link.json?.id || !hook.json?.id) {
  process.stdout.write(`${JSON.stringify({ error: `setup failed: link ${link.status}, webhook ${hook.status}` })}\n`);
  process.exit(0);
}
receiver.linkId = link.json.id;
const alias = new URL(link.json.shorturl).pathname;
process.stdout.write('ready\n');

let check = { s: null, status: null };
const started = performance.now();
const end = started + durationMs;
const checked = sleep(durationMs / 2).then(async () => {
  const r = await api(port, key, 'POST', `/api/url/${link.json.id}/check`, undefined, durationMs / 2 + drainMs);
  check = { s: r.ms / 1000, status: r.status };
});
for (let i = 0; performance.now() < end; i++) {
  const due = started + i * intervalMs;
  if (due > performance.now()) await sleep(due - performance.now());
  const at = performance.now();
  if (i % 2 === 0) {
    const r = await api(port, key, 'POST', '/api/url/add', { url: `${here}/made/${i}` }, Math.max(1000, end - at + drainMs));
    if (r.json?.id && early.has(r.json.id)) times.push(early.get(r.json.id) - at);
    else if (r.json?.id) created.set(r.json.id, at);
  } else {
    const visit = { at, wall: Date.now() };
    visits.push(visit);
    const r = await call(port, { path: alias, headers: { host: BENCH_HOST, 'user-agent': BROWSER }, timeoutMs: Math.max(1000, end - at + drainMs) });
    if (r.status < 300 || r.status >= 400) visits.splice(visits.indexOf(visit), 1); // not served as a visit: no event to wait for
  }
}
const sent = times.length + created.size + visits.length;
const drained = performance.now() + drainMs;
while (created.size + visits.length > 0 && performance.now() < drained) await sleep(50);
await checked;
const now = performance.now();
const undelivered = created.size + visits.length;
for (const t of [...created.values(), ...visits.map((v) => v.at)]) times.push(now - t);
receiver.closeAllConnections();
receiver.close();
const maxS = times.length ? Math.max(...times) / 1000 : null;
process.stdout.write(`${JSON.stringify({ events: sent, undelivered, maxS, checkS: check.s, checkStatus: check.status })}\n`);
