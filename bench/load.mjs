// The fallback load generator (see lib/generator.mjs), in its own process: autocannon with realistic
// browser headers and random aliases, uniform or Zipf (s = 1).
import autocannon from 'autocannon';
import { IPS, LANGUAGES, REFERERS, USER_AGENTS, zipf } from './lib/browser.mjs';

const spec = JSON.parse(process.argv[2]);

const pick = (list) => list[Math.floor(Math.random() * list.length)];

let sent = 0;
const { paths } = spec;
const alias = paths?.zipf ? zipf(paths.count) : () => Math.floor(Math.random() * paths.count);

function setupRequest(request) {
  request.path = paths ? `/${paths.prefix}${alias()}` : spec.path;
  const headers = {
    ...spec.headers,
    host: spec.host,
    'user-agent': pick(USER_AGENTS),
    'accept-language': pick(LANGUAGES),
    'x-forwarded-for': pick(IPS),
  };
  const referer = pick(REFERERS);
  if (referer) headers.referer = referer;
  request.headers = headers;
  if (spec.body) {
    request.method = spec.method;
    request.body = spec.body.replace('[<id>]', `${process.pid}-${++sent}`);
  }
  return request;
}

let started = 0;
let lastResponse = 0;
const result = await new Promise((resolve, reject) => {
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      // A fixed count, not a duration: a timed run ends with requests in flight that the server served and
      // recorded but the generator never counted, and clicks_lost must compare like with like.
      amount: spec.amount,
      ...(spec.amount ? {} : { duration: spec.duration ?? 5 }),
      ...(spec.rate ? { overallRate: spec.rate } : {}), // a paced background load (lib/stats-lag.mjs)
      method: spec.method ?? 'GET',
      requests: [{ setupRequest }],
    },
    (err, res) => (err ? reject(err) : resolve(res)),
  );
  instance.on('start', () => {
    started = performance.now();
  });
  // autocannon notices the last response only on its next one-second tick; time to the response itself.
  instance.on('response', () => {
    lastResponse = performance.now();
  });
});
const elapsedS = (lastResponse - started) / 1000;

const byStatus = {};
for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) byStatus[code] = Number(count);
const ok = Object.entries(byStatus)
  .filter(([c]) => c < '400')
  .reduce((n, [, v]) => n + v, 0);
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.total / elapsedS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    byStatus,
    errors: result.errors,
    duration: result.duration,
  }),
);
