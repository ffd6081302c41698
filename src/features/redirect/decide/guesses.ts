import type { Logger } from 'pino';
import type { RateLimitStore } from '../../../http/rate-limit.js';
import { Lane } from '../../../infra/lane.js';
import { tryVerifyPassword } from '../../../infra/secrets.js';
import { throttleClient } from '../../../lib/client-key.js';

/**
 * Tries of a link's password: 5 per link and client (an IPv4 address, an IPv6 /64) in 15 minutes, and the
 * link's ceiling (LINK_PASSWORD_CEILING) from all clients together in an hour, which bounds guessing spread
 * over many addresses; past it the link's form answers 429 to everyone until the hour ends.
 */
export const GUESS_LIMITS = { client: 5, windowMs: 15 * 60_000, ceilingWindowMs: 60 * 60_000 };

/**
 * Link passwords are checked on their own argon2 lane, one at a time per process with at most 8 waiting; a
 * guess past that is refused at once, so anonymous guessing never takes the sign-ins' lane or more than a core.
 */
export const GUESS_LANE = { slots: 1, waiting: 8 };

const secondsUntil = (resetAt: number, now: number) => Math.max(Math.ceil((resetAt - now) / 1000), 1);

/**
 * Counts and checks guesses of link passwords. Counted through the API's rate-limit store: with REDIS_URL every
 * node shares the counts. One per process (the public routes own it), since its lane is the process's.
 */
export class GuessGuard {
  private readonly lane = new Lane(GUESS_LANE.slots, GUESS_LANE.waiting);

  constructor(
    private readonly store: RateLimitStore,
    private readonly ceiling: number,
    private readonly log: Logger,
  ) {}

  private buckets(linkId: number, ip: string) {
    return {
      client: `linkpw:client:${linkId}|${throttleClient(ip)}`,
      link: `linkpw:link:${linkId}`,
    };
  }

  /**
   * Counts a guess before its (slow) check, so guesses sent at once cannot all pass; seconds to wait when a limit
   * is passed, else 0. A client already refused does not use up the link's ceiling with its refused tries.
   */
  async count(linkId: number, ip: string, now: number): Promise<number> {
    const names = this.buckets(linkId, ip);
    const client = await this.store.hit(names.client, GUESS_LIMITS.windowMs, now);
    if (client.count > GUESS_LIMITS.client) return secondsUntil(client.resetAt, now);
    const link = await this.store.hit(names.link, GUESS_LIMITS.ceilingWindowMs, now);
    if (link.count <= this.ceiling) return 0;
    if (link.count === this.ceiling + 1)
      this.log.warn({ linkId }, `A link's password form stopped for the hour: ${this.ceiling} tries from all clients`);
    return secondsUntil(link.resetAt, now);
  }

  /** The check on the link passwords' lane; undefined when the lane is full (then nothing was checked). */
  check(stored: string, password: string): Promise<boolean> | undefined {
    return tryVerifyPassword(this.lane, stored, password);
  }

  /** Takes a counted guess back: the right password, or a guess the full lane refused unchecked. */
  async uncount(linkId: number, ip: string, now: number): Promise<void> {
    const names = this.buckets(linkId, ip);
    await this.store.release(names.client, GUESS_LIMITS.windowMs, now);
    await this.store.release(names.link, GUESS_LIMITS.ceilingWindowMs, now);
  }
}
