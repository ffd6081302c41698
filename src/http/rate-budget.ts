import type { FastifyReply } from 'fastify';
import { failLater } from '../lib/errors.js';
import type { RateLimitStore } from './rate-limit.js';

/**
 * Charges `units` more hits to the caller's rate-limit window, for a request that costs more than the one
 * the gate counted (each password a bulk call hashes). Over the budget, nothing is charged and the request
 * is refused with the gate's own 429, before any of that work starts.
 */
export type ChargeUnits = (units: number) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    chargeUnits: ChargeUnits;
  }
}

interface Budget {
  bucket: string;
  max: number;
}

/** The charger of one gated request; its answer's X-RateLimit-Remaining follows each charge. */
export function rateCharger(store: RateLimitStore, budget: Budget, windowMs: number, reply: FastifyReply): ChargeUnits {
  return async (units) => {
    if (units <= 0) return;
    const now = Date.now();
    const state = await store.hit(budget.bucket, windowMs, now, units);
    if (state.count <= budget.max) {
      reply.header('X-RateLimit-Remaining', budget.max - state.count);
      return;
    }
    await store.release(budget.bucket, windowMs, now, units);
    reply.header('X-RateLimit-Remaining', Math.max(budget.max - (state.count - units), 0));
    throw failLater('rate_limited', Math.max(Math.ceil((state.resetAt - now) / 1000), 1));
  };
}

/** Requests outside the gate (none reach a charging route) have nothing to charge. */
export const chargeNothing: ChargeUnits = async () => undefined;
