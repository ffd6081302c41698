/** Hosts remembered before idle ones are forgotten. */
const MAX_HOSTS = 10_000;

interface HostState {
  active: number;
  waiting: Array<() => void>;
  failures: number;
  /** Epoch ms before which the next request waits (backoff after failures). */
  notBefore: number;
}

/** How long a request may wait for its host's turn, and what it does while the host backs off. */
export interface GateLimits {
  /** The longest wait for the host's backoff; 0 for a request a person is waiting on (asked anyway, once). */
  maxWaitMs: number;
  /** Epoch ms past which the request waits no more, for a slot or a backoff. */
  deadline: number;
  /** While the host backs off, give up at once instead of waiting (the link checker's probes). */
  failFast: boolean;
  /** Ends every wait at once (shutdown). */
  signal: AbortSignal;
}

/** Why the gate let a request go without running it. */
export class GateRefusal extends Error {
  constructor(readonly why: 'timeout' | 'backoff' | 'closed') {
    super(`host gate: ${why}`);
  }
}

/** Resolves after `ms`, or rejects at once when `signal` aborts; the timer is the caller's and always cleared. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const end = (err?: GateRefusal) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      if (err) reject(err);
      else resolve();
    };
    const abort = () => end(new GateRefusal('closed'));
    const timer = setTimeout(() => end(), ms);
    if (signal.aborted) return end(new GateRefusal('closed'));
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Per-host politeness for outbound requests: at most `perHost` at a time to one host (and port), and after
 * a failure (no answer, 429, 5xx) the host's next request waits 1 s, doubling per failure up to `maxBackoffMs`.
 * Every wait ends by the request's deadline, or at once while the host backs off when the caller asks so.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly perHost: number,
    private readonly maxBackoffMs: number,
  ) {}

  /** Runs `task` in the host's turn; `failed` says whether its result counts as a failure. Throws GateRefusal when it never ran. */
  async run<T>(host: string, task: () => Promise<T>, failed: (result: T) => boolean, limits: GateLimits): Promise<T> {
    const state = this.state(host);
    if (limits.failFast && state.notBefore > Date.now()) throw new GateRefusal('backoff');
    if (state.active >= this.perHost) await this.slot(state, limits);
    state.active++;
    try {
      const backoff = state.notBefore - Date.now();
      if (backoff > 0 && limits.failFast) throw new GateRefusal('backoff');
      const pause = Math.min(backoff, limits.maxWaitMs);
      if (pause > 0 && Date.now() + pause >= limits.deadline) throw new GateRefusal('timeout');
      if (pause > 0) await wait(pause, limits.signal);
      const result = await task();
      if (failed(result)) {
        state.failures++;
        state.notBefore = Date.now() + Math.min(1000 * 2 ** (state.failures - 1), this.maxBackoffMs);
      } else state.failures = 0;
      return result;
    } finally {
      state.active--;
      const next = state.waiting.shift();
      if (next) next();
      else if (state.active === 0 && state.failures === 0) this.hosts.delete(host);
    }
  }

  /** Waits for one of the host's slots until the deadline; a waiter that gives up leaves the queue, so no turn is lost to it. */
  private slot(state: HostState, limits: GateLimits): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (err?: GateRefusal) => {
        clearTimeout(timer);
        limits.signal.removeEventListener('abort', abort);
        const at = state.waiting.indexOf(turn);
        if (at >= 0) state.waiting.splice(at, 1);
        if (err) reject(err);
        else resolve();
      };
      const turn = () => done();
      const abort = () => done(new GateRefusal('closed'));
      const timer = setTimeout(() => done(new GateRefusal('timeout')), Math.max(0, limits.deadline - Date.now()));
      state.waiting.push(turn);
      limits.signal.addEventListener('abort', abort, { once: true });
      if (limits.signal.aborted) abort();
    });
  }

  private state(host: string): HostState {
    if (this.hosts.size >= MAX_HOSTS) this.prune();
    let state = this.hosts.get(host);
    if (!state) this.hosts.set(host, (state = { active: 0, waiting: [], failures: 0, notBefore: 0 }));
    return state;
  }

  /** Forgets idle hosts whose backoff has passed, so many failing hosts cannot grow the map without bound. */
  private prune(): void {
    const now = Date.now();
    for (const [host, state] of this.hosts) if (state.active === 0 && state.notBefore <= now) this.hosts.delete(host);
  }
}
