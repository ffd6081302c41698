import type { FastifyReply } from 'fastify';
import { MemoryRateLimitStore } from '../../../http/rate-limit.js';
import { html, renderPage } from '../../../lib/html.js';
import { throttleClient } from '../../../lib/client-key.js';
import { sendPage } from './send.js';
import { RATE_SCOPE, type Counters } from '../../../infra/metrics/counters.js';

/**
 * A budget of costly public requests per client (an IP address; for IPv6 its /64) and fixed window,
 * counted in this process's memory: the public side has no key to count by, and a Redis round trip
 * would cost more than most of what it guards.
 */
export class ClientBudget {
  private readonly store = new MemoryRateLimitStore();
  private readonly windowMs: number;

  constructor(
    readonly name: string,
    readonly max: number,
    readonly windowS: number,
    /** Refusals are counted here for /metrics (redirectory_rate_limited_total{scope="public"}). */
    private readonly counters: Counters,
  ) {
    this.windowMs = windowS * 1000;
  }

  /** Counts one request; the seconds until the window ends when it is over the budget, else 0. */
  take(ip: string, now = Date.now()): number {
    const state = this.store.count(`${this.name}:${throttleClient(ip)}`, this.windowMs, now);
    if (state.count <= this.max) return 0;
    this.counters.rateLimited[RATE_SCOPE.public]!++;
    return Math.max(Math.ceil((state.resetAt - now) / 1000), 1);
  }
}

/** The 429 page of the public side, with Retry-After. */
export function sendTooMany(reply: FastifyReply, seconds: number): FastifyReply {
  const page = renderPage({
    title: 'Too many requests · Redirectory',
    body: html`<h1>Too many requests</h1><p>This address sent too many requests. Try again in ${seconds} seconds.</p>`,
  });
  return sendPage(reply, 429, page, seconds);
}
