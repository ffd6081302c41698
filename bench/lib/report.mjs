// What `npm run bench` prints: the headline, a table of the A/B medians, and the one-line summary
// (`bench: key=value …`) that scripts compare across runs.
import { pgKeys, pgLine } from './pg.mjs';
import { lagKeys, lagLine } from './stats-lag.mjs';
import { PIN } from './proc.mjs';

const fmt = (n, d = 0) => n.toFixed(d).padStart(9);
const find = (rows, name) => rows.find((r) => r.scenario === name);

export function printReport({
  rows,
  names,
  generator,
  run,
  minutes,
  created,
  stats,
  series,
  clicks,
  statsClicks,
  connections,
  imported,
  abuseP99,
  isolation,
  pg,
  lag,
}) {
  const direct = find(rows, names.direct);
  const grown = find(rows, names.grown);
  const zipf = find(rows, names.zipf);
  const targeted = find(rows, names.targeted);
  const rules = find(rows, names.rules);
  const size = generator === 'wrk' ? `${run.duration} s` : `${run.amount} requests`;
  console.log(
    `\nRedirectory benchmark (${run.quick ? 'quick' : 'full'}: load by ${generator}, ${run.reps}x A/B of ${size} (the 1k-link scenarios: ${run.setReps} reps, one baseline), ${run.connections} connections, ${PIN ? `servers on CPU ${PIN.server}, load on ${PIN.load}` : 'not pinned'}, ${minutes.toFixed(1)} min)`,
  );
  console.log(
    `headline (${names.direct}): server CPU per request, baseline ÷ Redirectory = ${direct.cpuRatio.toFixed(2)}; throughput, Redirectory ÷ baseline = ${direct.ratio.toFixed(2)}`,
  );
  console.log(
    'scenario                          req/s      p50      p99  CPU µs/req  base µs/req  CPU ratio  req/s ratio  base req/s   RSS MB  non-3xx',
  );
  for (const r of rows) {
    console.log(
      `${r.scenario.padEnd(30)}${fmt(r.rps)}${fmt(r.p50, 1)}${fmt(r.p99, 1)}${fmt(r.cpuUs, 1)}    ${fmt(r.baseCpuUs, 1)}      ${r.cpuRatio.toFixed(2)}         ${r.ratio.toFixed(2)}  ${fmt(r.baseRps)}${fmt(r.rss)}${fmt(r.errors)}`,
    );
  }
  console.log(`link creation: ${created.rps.toFixed(0)} links/s (${created.ok} created, p99 ${created.p99.toFixed(1)} ms)`);
  console.log(
    `GET /api/url/{id} with ${statsClicks} clicks (${connections} connections): p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms, ${stats.rps.toFixed(0)} req/s`,
  );
  console.log(
    `GET /api/stats/clicks, 90 days of the account holding every link (${connections} connections): p50 ${series.p50.toFixed(1)} ms, p99 ${series.p99.toFixed(1)} ms`,
  );
  console.log(`clicks lost: ${clicks.single.lost} single-process, ${clicks.workers.lost} with WORKERS=2${surplus(clicks)}`);
  const { killed } = clicks;
  console.log(
    `clicks lost to SIGKILL mid-load: ${killed.lost} of ${killed.served} answered (${killed.extra} counted beyond, ${killed.unanswered} in flight)`,
  );
  console.log(pgLine(pg));
  console.log(lagLine(lag));
  // rss_mb: the peak read right after each load run on the 1M-link server (idle, the collector gives memory back).
  const keys = {
    redirect_ratio: direct.ratio.toFixed(2),
    targeted_ratio: targeted.ratio.toFixed(2),
    growth_ratio: (grown.ratio / direct.ratio).toFixed(2),
    clicks_lost: clicks.single.lost + clicks.workers.lost,
    clicks_lost_kill: clicks.killed.lost,
    create_per_s: created.rps.toFixed(0),
    stats_p99_ms: round(stats.p99),
    rss_mb: grown.rss.toFixed(0),
    cpu_ratio: direct.cpuRatio.toFixed(2),
    cpu_growth: (grown.cpuRatio / direct.cpuRatio).toFixed(2),
    cpu_zipf: (zipf.cpuRatio / direct.cpuRatio).toFixed(2),
    cpu_rules: rules.cpuRatio.toFixed(2),
    generator,
    series_p99_ms: round(series.p99),
    import_per_s: imported.toFixed(0),
    abuse_health_p99_ms: abuseP99.toFixed(1),
    // Targets 50 ms and 5 s (bench/isolation.mjs); a delivery never made counts as made when the scenario stopped waiting.
    isolation_health_p99_ms: isolation.healthP99Ms.toFixed(1),
    isolation_delivery_s: isolation.deliveryS.toFixed(1),
    isolation_undelivered: isolation.undelivered,
    ...pgKeys(pg),
    ...lagKeys(lag),
  };
  console.log(
    `bench: ${Object.entries(keys)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}

// autocannon reports whole milliseconds, wrk microseconds: keep what the generator measured.
const round = (ms) => (Number.isInteger(ms) ? ms : ms.toFixed(1));

/** wrk stops with requests in flight: the server may have recorded them, the generator never counted them. */
function surplus({ single, workers }) {
  const extra = single.extra + workers.extra;
  const unanswered = single.unanswered + workers.unanswered;
  if (extra === 0 && unanswered === 0) return '';
  const note = `; wrk stopped with ${unanswered} requests unanswered, and ${extra} clicks were recorded beyond the answers it counted`;
  return extra > unanswered ? `${note}: MORE THAN WERE SENT (clicks counted twice?)` : `${note} (at most ${unanswered} expected)`;
}
