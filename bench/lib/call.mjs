// One HTTP exchange with an overall deadline, for the scenarios that flood a server that may stall: a
// request that is not answered in `timeoutMs` is cut and counted as status 0, so no loop waits for good.
import { request } from 'node:http';

/**
 * Answers {status, ms, body} (body only with `keep`; status 0 when the server hung up or the deadline passed).
 * The whole answer is read (an export streams); the timer is ours, held until the exchange ends.
 */
export function call(port, { method = 'GET', path, headers = {}, body, timeoutMs = 10_000, keep = false, agent, host = '127.0.0.1' }) {
  const started = performance.now();
  return new Promise((done) => {
    let settled = false;
    const finish = (status, chunks) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done({ status, ms: performance.now() - started, body: keep && chunks ? Buffer.concat(chunks).toString('utf8') : '' });
    };
    const req = request({ host, port, method, path, agent, headers: agent ? headers : { ...headers, connection: 'close' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => keep && chunks.push(c));
      res.on('end', () => finish(res.statusCode, chunks));
      res.on('error', () => finish(0));
      res.on('aborted', () => finish(0));
    });
    const timer = setTimeout(
      () => {
        req.destroy(new Error('deadline'));
        finish(0);
      },
      Math.max(1, timeoutMs),
    );
    req.on('error', () => finish(0));
    req.end(body);
  });
}

/** A JSON API call with a bearer key; `json` is the parsed answer or null. */
export async function api(port, key, method, path, payload, timeoutMs = 10_000) {
  const headers = { authorization: `Bearer ${key}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const r = await call(port, { method, path, headers, body: payload === undefined ? undefined : JSON.stringify(payload), timeoutMs, keep: true });
  let json = null;
  try {
    json = JSON.parse(r.body);
  } catch {}
  return { ...r, json };
}

/** Runs `once` in `loops` parallel loops until `until` (performance.now()); counts answers by status. */
export async function loop(loops, until, once) {
  const statuses = {};
  await Promise.all(
    Array.from({ length: loops }, async (_, i) => {
      for (let n = 0; performance.now() < until; n++) {
        const { status } = await once(i, n);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

/** What is left of a flood for one request: to its end and a little more, never less than a second. */
export const left = (until, grace = 1000) => Math.max(1000, until - performance.now() + grace);
