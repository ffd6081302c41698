/**
 * The figures the request paths keep for /metrics: plain numbers in typed arrays, bumped with one store and
 * read by the registry's collect() callbacks at scrape time (registry.ts). Nothing here calls prom-client,
 * so a redirect costs one array increment whether metrics are scraped or not (docs/decisions/0012-metrics.md).
 */

/** What a GET or HEAD of `/{alias}` was answered with: the `outcome` label of redirectory_redirects_total. */
export const OUTCOMES = ['redirect', 'page', 'preview', 'password', 'expired', 'not_found', 'bio'] as const;
export type OutcomeName = (typeof OUTCOMES)[number];
/** An outcome's index in `Counters.redirects`: numbers, so the hot path indexes a typed array. */
export const OUTCOME = Object.fromEntries(OUTCOMES.map((name, i) => [name, i])) as { readonly [K in OutcomeName]: number };
export type Outcome = number;

/** Where a request was refused for being over a budget: the `scope` label of redirectory_rate_limited_total. */
export const RATE_SCOPES = ['api', 'public'] as const;
export const RATE_SCOPE = { api: 0, public: 1 } as const;

/** A webhook delivery attempt's result (`result` label): delivered, failed (will retry), or given up. */
export type DeliveryResult = string;

export class Counters {
  /** Per outcome (OUTCOME), since start. */
  readonly redirects = new Float64Array(OUTCOMES.length);
  /** [hits, misses] of the link lookup: a hit is answered from memory (cache, resident index, negative cache), a miss reads the database. */
  readonly linkCache = new Float64Array(2);
  /** Per RATE_SCOPE. */
  readonly rateLimited = new Float64Array(RATE_SCOPES.length);
  /** Per result; webhooks are few, so a map is cheap enough here. */
  private readonly deliveries = new Map<DeliveryResult, number>();

  /** For the webhook sender: one delivery attempt ended with `result` (`delivered`, `failed`, `disabled`…). */
  readonly webhookDeliveries = {
    increment: (result: DeliveryResult): void => {
      this.deliveries.set(result, (this.deliveries.get(result) ?? 0) + 1);
    },
  };

  deliveryCounts(): ReadonlyMap<DeliveryResult, number> {
    return this.deliveries;
  }
}

export const LINK_CACHE_HIT = 0;
export const LINK_CACHE_MISS = 1;
