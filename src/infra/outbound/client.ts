import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BLOCKED, guardedLookup, literalRefused } from './guarded-lookup.js';
import { HostGate } from './host-gate.js';

/**
 * The one way the server makes requests to addresses its users name (link checks; webhooks next): only
 * to public addresses, checked on the address each socket connects to and again on every redirect hop,
 * with a short timeout per hop, an honest User-Agent and per-host politeness (host-gate.ts).
 */

export interface OutboundOptions {
  userAgent: string;
  /** Per hop: connecting, sending and the answer's headers. */
  timeoutMs: number;
  /** Tests only: loopback addresses become reachable; private and metadata ones never do. */
  allowLoopback: boolean;
  maxRedirects?: number;
  perHost?: number;
  maxBackoffMs?: number;
}

export interface OutboundRequest {
  method: 'HEAD' | 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Follow 301/302/303/307/308 (each hop checked like the first); false answers the redirect itself. */
  follow?: boolean;
  /** The longest a request waits for its host's backoff; 0 for a request a person is waiting on. */
  maxWaitMs?: number;
}

export type Failure = 'dns' | 'refused' | 'timeout' | 'blocked' | 'tls' | 'network' | 'redirect_loop' | 'too_many_redirects' | 'bad_redirect';

/** The final answer's status, or why there is none; `url` is the last address asked. */
export type Outcome = { ok: true; status: number; url: string; redirects: number } | { ok: false; failure: Failure; url: string; redirects: number };

type Hop = { status: number; location: string | undefined } | { failure: Failure };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function failureOf(err: NodeJS.ErrnoException): Failure {
  const code = err.code ?? '';
  if (code === BLOCKED) return 'blocked';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'refused';
  if (code === 'ETIMEDOUT' || err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout';
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL')) return 'tls';
  return 'network';
}

export class OutboundClient {
  private readonly gate: HostGate;
  private readonly lookup;
  /** Aborts the requests under way at close, so a shutdown never waits for a slow host. */
  private readonly closing = new AbortController();

  constructor(private readonly options: OutboundOptions) {
    this.gate = new HostGate(options.perHost ?? 2, options.maxBackoffMs ?? 30_000);
    this.lookup = guardedLookup(options.allowLoopback);
  }

  /** Ends the requests under way and refuses new ones (shutdown). */
  close(): void {
    this.closing.abort();
  }

  async request(url: string, req: OutboundRequest): Promise<Outcome> {
    const seen = new Set<string>();
    let current = new URL(url);
    let method = req.method;
    for (let redirects = 0; ; redirects++) {
      seen.add(current.href);
      const hop = await this.gate.run(current.host, () => this.hop(current, method, req), failedHop, req.maxWaitMs ?? 30_000);
      if ('failure' in hop) return { ok: false, failure: hop.failure, url: current.href, redirects };
      if (!(req.follow ?? true) || !REDIRECTS.has(hop.status) || hop.location === undefined) {
        return { ok: true, status: hop.status, url: current.href, redirects };
      }
      const next = URL.canParse(hop.location, current.href) ? new URL(hop.location, current) : null;
      if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:'))
        return { ok: false, failure: 'bad_redirect', url: current.href, redirects };
      if (seen.has(next.href)) return { ok: false, failure: 'redirect_loop', url: next.href, redirects: redirects + 1 };
      if (redirects + 1 > (this.options.maxRedirects ?? 5))
        return { ok: false, failure: 'too_many_redirects', url: next.href, redirects: redirects + 1 };
      if (hop.status === 303 && method !== 'HEAD') method = 'GET';
      current = next;
    }
  }

  /** One request to one address; the answer's body is never read. */
  private hop(url: URL, method: OutboundRequest['method'], req: OutboundRequest): Promise<Hop> {
    if (this.closing.signal.aborted) return Promise.resolve({ failure: 'network' });
    const refused = literalRefused(url.hostname, this.options.allowLoopback);
    if (refused) return Promise.resolve({ failure: 'blocked' });
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const outgoing = send(url.href, {
        method,
        agent: false,
        lookup: this.lookup,
        signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.options.timeoutMs)]),
        headers: { 'user-agent': this.options.userAgent, accept: '*/*', ...req.headers },
      });
      outgoing.on('response', (res: IncomingMessage) => {
        const location = res.headers.location;
        res.destroy(); // the status is the answer: a body could be endless
        resolve({ status: res.statusCode ?? 0, location });
      });
      outgoing.on('error', (err: NodeJS.ErrnoException) => resolve({ failure: failureOf(err) }));
      outgoing.end(method === 'POST' ? req.body : undefined);
    });
  }
}

/** What makes a host wait before its next request: no answer at all, 429 or 5xx. */
function failedHop(hop: Hop): boolean {
  return 'failure' in hop ? hop.failure !== 'blocked' : hop.status === 429 || hop.status >= 500;
}
