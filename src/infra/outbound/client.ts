import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BLOCKED, guardedLookup, literalRefused } from './guarded-lookup.js';
import { GateRefusal, HostGate } from './host-gate.js';

/**
 * The one way the server makes requests to addresses its users name (link checks; webhooks next): only
 * to public addresses, checked on the address each socket connects to and again on every redirect hop,
 * with a short timeout per hop and a deadline for the whole request, an honest User-Agent and per-host politeness
 * (host-gate.ts). Each timeout is a timer the request holds and clears: AbortSignal.timeout() inside
 * AbortSignal.any() is held only weakly and never fires after a garbage collection (nodejs/node#57736).
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
  /** Epoch ms by which the whole request ends, hops and waits included (`timeout` past it); by default a hop's worth from now per hop allowed. */
  deadline?: number;
  /** While the host backs off, fail at once as `backoff` instead of waiting (the link checker's probes). */
  failWhileBackingOff?: boolean;
}

export type Failure =
  'dns' | 'refused' | 'timeout' | 'blocked' | 'tls' | 'network' | 'redirect_loop' | 'too_many_redirects' | 'bad_redirect' | 'backoff';

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
  /** Aborts the requests under way and their waits at close, so a shutdown never waits for a slow host. */
  private readonly closing = new AbortController();
  /** Each hop under way, held here (and by its timer) until it ends, so close() reaches it. */
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly options: OutboundOptions) {
    this.gate = new HostGate(options.perHost ?? 2, options.maxBackoffMs ?? 30_000);
    this.lookup = guardedLookup(options.allowLoopback);
  }

  /** Ends the requests under way and refuses new ones (shutdown). */
  close(): void {
    this.closing.abort();
    for (const hop of this.inFlight) hop.abort();
  }

  async request(url: string, req: OutboundRequest): Promise<Outcome> {
    const seen = new Set<string>();
    let current = new URL(url);
    let method = req.method;
    const maxRedirects = this.options.maxRedirects ?? 5;
    const deadline = req.deadline ?? Date.now() + this.options.timeoutMs * (maxRedirects + 1);
    for (let redirects = 0; ; redirects++) {
      seen.add(current.href);
      const hop = await this.turn(current, method, req, deadline);
      if ('failure' in hop) return { ok: false, failure: hop.failure, url: current.href, redirects };
      if (!(req.follow ?? true) || !REDIRECTS.has(hop.status) || hop.location === undefined) {
        return { ok: true, status: hop.status, url: current.href, redirects };
      }
      const next = URL.canParse(hop.location, current.href) ? new URL(hop.location, current) : null;
      if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:'))
        return { ok: false, failure: 'bad_redirect', url: current.href, redirects };
      if (seen.has(next.href)) return { ok: false, failure: 'redirect_loop', url: next.href, redirects: redirects + 1 };
      if (redirects + 1 > maxRedirects) return { ok: false, failure: 'too_many_redirects', url: next.href, redirects: redirects + 1 };
      if (hop.status === 303 && method !== 'HEAD') method = 'GET';
      current = next;
    }
  }

  /** One hop in its host's turn; a turn the gate refused (deadline, backoff, shutdown) is a failed hop. */
  private async turn(url: URL, method: OutboundRequest['method'], req: OutboundRequest, deadline: number): Promise<Hop> {
    if (this.closing.signal.aborted) return { failure: 'network' };
    const limits = { maxWaitMs: req.maxWaitMs ?? 30_000, deadline, failFast: req.failWhileBackingOff ?? false, signal: this.closing.signal };
    try {
      return await this.gate.run(url.host, () => this.hop(url, method, req, deadline), failedHop, limits);
    } catch (err) {
      if (!(err instanceof GateRefusal)) throw err;
      return { failure: err.why === 'closed' ? 'network' : err.why };
    }
  }

  /** One request to one address, ended by its own timer; the answer's body is never read. */
  private async hop(url: URL, method: OutboundRequest['method'], req: OutboundRequest, deadline: number): Promise<Hop> {
    const ms = Math.min(this.options.timeoutMs, deadline - Date.now());
    if (this.closing.signal.aborted) return { failure: 'network' };
    if (ms <= 0) return { failure: 'timeout' };
    if (literalRefused(url.hostname, this.options.allowLoopback)) return { failure: 'blocked' };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ms);
    this.inFlight.add(controller);
    try {
      return await this.send(url, method, req, controller.signal);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  private send(url: URL, method: OutboundRequest['method'], req: OutboundRequest, signal: AbortSignal): Promise<Hop> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const outgoing = send(url.href, {
        method,
        agent: false,
        lookup: this.lookup,
        signal,
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
