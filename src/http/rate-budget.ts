import type { FastifyReply } from 'fastify';
import { failLater } from '../lib/errors.js';
import type { RateLimitStore, WindowState } from './rate-limit.js';

/**
 * Charges `units` more hits to the caller's rate-limit windows, for a request that costs more than the one
 * the gate counted (each password a bulk call hashes). Over a budget, nothing is charged and the request
 * is refused with the gate's own 429, before any of that work starts.
 */
export type ChargeUnits = (units: number) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    chargeUnits: ChargeUnits;
  }
}

/** One window a request counts against: a key's, a session account's or a client IP's own, or an account's over all of them. */
export interface Budget {
  bucket: string;
  /** Infinity: counted, never refused, never named in the headers. */
  max: number;
}

/** What counting a request against its budgets found: each budget counted, and the first one passed, if any. */
interface Count {
  states: WindowState[];
  over: number;
}

/**
 * Counts `units` against each budget in order and stops at the first one passed, so a key past its own limit does
 * not use up its account's budget for the account's other keys and sessions.
 */
async function countAll(store: RateLimitStore, budgets: Budget[], windowMs: number, now: number, units: number): Promise<Count> {
  const states: WindowState[] = [];
  for (const budget of budgets) {
    const state = await store.hit(budget.bucket, windowMs, now, units);
    states.push(state);
    if (state.count > budget.max) return { states, over: states.length - 1 };
  }
  return { states, over: -1 };
}

/** The rate-limit headers name the budget with the least left (the first of equals), `taken` of each count not kept. */
function setHeaders(reply: FastifyReply, budgets: Budget[], states: WindowState[], taken = 0): void {
  let tightest = 0;
  const left = (i: number) => Math.max(budgets[i]!.max - (states[i]!.count - taken), 0);
  for (let i = 1; i < states.length; i++) if (left(i) < left(tightest)) tightest = i;
  reply.header('X-RateLimit-Limit', budgets[tightest]!.max);
  reply.header('X-RateLimit-Remaining', left(tightest));
  reply.header('X-RateLimit-Reset', Math.ceil(states[tightest]!.resetAt / 1000));
}

const refusal = (state: WindowState, now: number) => failLater('rate_limited', Math.max(Math.ceil((state.resetAt - now) / 1000), 1));

/** The gate's count of one request: refused requests count too (a caller hammering past its budget stays refused). */
export async function countRequest(store: RateLimitStore, budgets: Budget[], windowMs: number, reply: FastifyReply): Promise<void> {
  const now = Date.now();
  const { states, over } = await countAll(store, budgets, windowMs, now, 1);
  setHeaders(reply, budgets, states);
  if (over >= 0) throw refusal(states[over]!, now);
}

/** The charger of one gated request; its answer's X-RateLimit-Remaining follows each charge. */
export function rateCharger(store: RateLimitStore, budgets: Budget[], windowMs: number, reply: FastifyReply): ChargeUnits {
  return async (units) => {
    if (units <= 0) return;
    const now = Date.now();
    const { states, over } = await countAll(store, budgets, windowMs, now, units);
    if (over < 0) return setHeaders(reply, budgets, states);
    await Promise.all(states.map((_, i) => store.release(budgets[i]!.bucket, windowMs, now, units)));
    setHeaders(reply, budgets, states, units);
    throw refusal(states[over]!, now);
  };
}

/** Requests outside the gate (none reach a charging route) have nothing to charge. */
export const chargeNothing: ChargeUnits = async () => undefined;
