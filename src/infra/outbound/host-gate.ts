/** Hosts remembered before idle ones are forgotten. */
const MAX_HOSTS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

interface HostState {
  active: number;
  waiting: Array<() => void>;
  failures: number;
  /** Epoch ms before which the next request waits (backoff after failures). */
  notBefore: number;
}

/**
 * Per-host politeness for outbound requests: at most `perHost` at a time to one host (and port), and after
 * a failure (no answer, 429, 5xx) the host's next request waits 1 s, doubling per failure up to `maxBackoffMs`.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly perHost: number,
    private readonly maxBackoffMs: number,
  ) {}

  /** Runs `task` in the host's turn; `failed` says whether its result counts as a failure. `maxWaitMs` bounds the backoff wait. */
  async run<T>(host: string, task: () => Promise<T>, failed: (result: T) => boolean, maxWaitMs: number): Promise<T> {
    const state = this.state(host);
    if (state.active >= this.perHost) await new Promise<void>((resolve) => state.waiting.push(resolve));
    state.active++;
    try {
      const wait = Math.min(state.notBefore - Date.now(), maxWaitMs);
      if (wait > 0) await sleep(wait);
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
