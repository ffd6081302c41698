// The load generator, in its own process: autocannon with realistic browser headers and random aliases.
import autocannon from 'autocannon';

const spec = JSON.parse(process.argv[2]);

const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
];
const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.5', 'fr-FR,fr;q=0.8', 'es;q=0.7,en;q=0.3', 'ja'];
const REFERERS = ['https://www.facebook.com/', 'https://t.co/abc', 'https://www.google.com/', '', 'https://news.example.org/story'];
const IPS = ['8.8.8.8', '81.2.69.142', '5.9.0.1', '1.1.1.1', '203.0.113.9', '93.184.216.34'];

const pick = (list) => list[Math.floor(Math.random() * list.length)];

let sent = 0;

function setupRequest(request) {
  request.path = spec.paths ? `/${spec.paths.prefix}${Math.floor(Math.random() * spec.paths.count)}` : spec.path;
  const headers = { ...spec.headers, host: spec.host, 'user-agent': spec.userAgent ?? pick(USER_AGENTS), 'accept-language': pick(LANGUAGES), 'x-forwarded-for': pick(IPS) };
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
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    // A fixed count, not a duration: a timed run ends with requests in flight that the server served and
    // recorded but the generator never counted, and clicks_lost must compare like with like.
    amount: spec.amount,
    ...(spec.amount ? {} : { duration: spec.duration ?? 5 }),
    method: spec.method ?? 'GET',
    requests: [{ setupRequest }],
  }, (err, res) => (err ? reject(err) : resolve(res)));
  instance.on('start', () => { started = performance.now(); });
  // autocannon notices the last response only on its next one-second tick; time to the response itself.
  instance.on('response', () => { lastResponse = performance.now(); });
});
const elapsedS = (lastResponse - started) / 1000;

const byStatus = {};
for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) byStatus[code] = Number(count);
const ok = Object.entries(byStatus).filter(([c]) => c < '400').reduce((n, [, v]) => n + v, 0);
process.stdout.write(JSON.stringify({
  requests: result.requests.total,
  rps: result.requests.total / elapsedS,
  p50: result.latency.p50,
  p99: result.latency.p99,
  ok,
  byStatus,
  errors: result.errors,
  duration: result.duration,
}));
