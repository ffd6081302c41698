import { cacheKeys } from '../lib/cache-keys.js';

export interface WindowState {
  /** Requests counted in this window, this one included. */
  count: number;
  /** Unix time in milliseconds when the window ends. */
  resetAt: number;
}

/** Counts hits in fixed windows aligned to the epoch, so every node agrees on when a window ends. */
export interface RateLimitStore {
  /** Counts `units` hits at once (1 unless a request costs more, as a bulk call's password hashes do). */
  hit(bucket: string, windowMs: number, now: number, units?: number): Promise<WindowState>;
  /** Takes back `units` hits of the current window (a sign-in that succeeded is no failure); never below 0. */
  release(bucket: string, windowMs: number, now: number, units?: number): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, WindowState>();
  private sweptAt = 0;

  async hit(bucket: string, windowMs: number, now: number, units = 1): Promise<WindowState> {
    return this.count(bucket, windowMs, now, units);
  }

  async release(bucket: string, windowMs: number, now: number, units = 1): Promise<void> {
    const state = this.windows.get(cacheKeys.rateLimit(bucket, Math.floor(now / windowMs) * windowMs));
    if (state) state.count = Math.max(state.count - units, 0);
  }

  /** `hit` without the promise, for callers that must decide synchronously (the public POST budget). */
  count(bucket: string, windowMs: number, now: number, units = 1): WindowState {
    const start = Math.floor(now / windowMs) * windowMs;
    const key = cacheKeys.rateLimit(bucket, start);
    let state = this.windows.get(key);
    if (!state) {
      state = { count: 0, resetAt: start + windowMs };
      this.windows.set(key, state);
      this.sweep(now, windowMs);
    }
    state.count += units;
    return { ...state };
  }

  /** Drops finished windows at most once per window length, so memory stays bounded by active callers. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.sweptAt < windowMs) return;
    this.sweptAt = now;
    for (const [key, state] of this.windows) if (state.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
