import { createHash } from 'node:crypto';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { hostKey } from './lib/hosts.js';

/** Every setting Redirectory reads from the environment, with the SQLite defaults a fresh machine needs. */
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  BASE_URL: Type.Optional(Type.String()),
  DATABASE_URL: Type.String({ default: 'sqlite:data/redirectory.db' }),
  REDIS_URL: Type.Optional(Type.String()),
  /** Namespaces every Redis key and channel, so several installations (or test runs) can share one Redis. */
  REDIS_PREFIX: Type.String({ default: 'redirectory:' }),
  TRUST_PROXY: Type.Boolean({ default: false }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 30 }),
  RATE_LIMIT_WINDOW_S: Type.Integer({ minimum: 1, default: 60 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  /** `auto`: readable lines when stdout is a terminal, else JSON. */
  LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('pretty'), Type.Literal('json')], { default: 'auto' }),
  DOMAIN_DNS_TARGETS: Type.String({ default: '' }),
  /** Two seconds of clicks per batch: a link's rows are written once for twice the visits (docs/performance.md#writer-batches). */
  CLICK_FLUSH_MS: Type.Integer({ minimum: 10, default: 2000 }),
  CLICK_BATCH_MAX: Type.Integer({ minimum: 1, default: 50_000 }),
  /** Root of the click journals (one directory per process), so a killed process loses no answered click; `off` keeps none. */
  CLICK_JOURNAL_DIR: Type.Optional(Type.String()),
  /** Days of hourly click buckets kept; older hours are rolled up into days in the background. */
  SERIES_HOURLY_DAYS: Type.Integer({ minimum: 1, maximum: 3660, default: 90 }),
  /** Days of the visit log kept (pruned in the background); 0 logs no visits. */
  VISIT_LOG_DAYS: Type.Integer({ minimum: 0, maximum: 3660, default: 30 }),
  /** Days the account activity log (sign-ins, key and credential changes, imports, exports) keeps its entries. */
  ACTIVITY_LOG_DAYS: Type.Integer({ minimum: 1, maximum: 3660, default: 90 }),
  LINK_CACHE_SIZE: Type.Integer({ minimum: 0, default: 100_000 }),
  /** Direct links kept resident for the redirect (about 90 bytes each, off the heap), filled after start; 0 keeps none. */
  LINK_INDEX_MAX: Type.Integer({ minimum: 0, default: 1_000_000 }),
  LINK_CACHE_TTL_S: Type.Optional(Type.Integer({ minimum: 0 })),
  SECRET: Type.Optional(Type.String({ minLength: 16 })),
  GEOIP_MMDB: Type.Optional(Type.String()),
  WORKERS: Type.Integer({ minimum: 1, default: 1 }),
  /** The dashboard's own origin (recommended in production); unset, it shares BASE_URL's origin. */
  DASHBOARD_URL: Type.Optional(Type.String()),
  /** `open` lets anyone create an account from the dashboard's sign-in page. */
  REGISTRATION: Type.Union([Type.Literal('closed'), Type.Literal('open')], { default: 'closed' }),
  /** A dashboard session ends after this long without a request (fractions allowed). */
  SESSION_IDLE_MINUTES: Type.Number({ exclusiveMinimum: 0, default: 60 * 24 * 7 }),
  /** …and at the latest this long after sign-in, however active. */
  SESSION_MAX_DAYS: Type.Number({ exclusiveMinimum: 0, default: 30 }),
  /** Requests per RATE_LIMIT_WINDOW_S of a signed-in dashboard account (its own budget, not an API key's). */
  SESSION_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 600 }),
  /** Requests per RATE_LIMIT_WINDOW_S of one account's keys together (its sessions' count too); unset, 10 × RATE_LIMIT_MAX. */
  ACCOUNT_RATE_LIMIT_MAX: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Live (unexpired) API keys one account may hold. */
  MAX_KEYS_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  /** Tries of one link's password from all clients together per hour; past it the link's form answers 429. */
  LINK_PASSWORD_CEILING: Type.Integer({ minimum: 1, default: 100 }),
  /** The largest CSV file POST /api/urls/import reads, in bytes; a larger one is refused with 413 before it is read. */
  IMPORT_MAX_BYTES: Type.Integer({ minimum: 1024, default: 20 * 1024 * 1024 }),
  /** Seconds between two checks of one link's destinations (with jitter); 0 checks only on request. */
  HEALTH_INTERVAL_S: Type.Integer({ minimum: 0, default: 6 * 3600 }),
  /** Per hop of an outbound request (link checks, webhooks): connecting, sending and the answer's headers. */
  OUTBOUND_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 5000 }),
  /** Tests only: outbound requests may reach loopback addresses (never private, link-local or metadata ones). */
  OUTBOUND_ALLOW_LOOPBACK: Type.Boolean({ default: false }),
  /** The first retry delay of a webhook delivery; each next one doubles (with jitter), up to an hour. */
  WEBHOOK_BACKOFF_MS: Type.Integer({ minimum: 10, default: 10_000 }),
  /** How long a delivery is retried, and how long a webhook may fail before it is disabled (a day). */
  WEBHOOK_GIVE_UP_MS: Type.Integer({ minimum: 100, default: 24 * 3600_000 }),
  /** Days delivered and given-up webhook deliveries are kept from their event (pruned hourly); pending ones stay. */
  WEBHOOK_KEEP_DAYS: Type.Integer({ minimum: 1, maximum: 3660, default: 7 }),
  /** GET /metrics on the main port answers only `Authorization: Bearer <this>`; unset, it answers 404 like any unknown path. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** A listener of its own for GET /metrics, without a token (the primary's with WORKERS > 1); unset, none. */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  /** Where METRICS_PORT listens: loopback unless the scraper is elsewhere (it has no token, so keep it private). */
  METRICS_HOST: Type.String({ default: '127.0.0.1' }),
  /** Strict-Transport-Security max-age (seconds) on BASE_URL's and DASHBOARD_URL's hosts when they are https; 0 sends none. */
  HSTS_MAX_AGE: Type.Integer({ minimum: 0, default: 31_536_000 }),
});

export type Env = Static<typeof EnvSchema>;

export interface Config extends Omit<Env, 'BASE_URL' | 'DOMAIN_DNS_TARGETS' | 'DASHBOARD_URL' | 'CLICK_JOURNAL_DIR' | 'ACCOUNT_RATE_LIMIT_MAX'> {
  BASE_URL: string;
  /** One account's budget over all its keys (ACCOUNT_RATE_LIMIT_MAX, or its default). */
  ACCOUNT_RATE_LIMIT_MAX: number;
  /** Origin of the dashboard: DASHBOARD_URL's, else BASE_URL's. Sessions are only accepted there. */
  DASHBOARD_ORIGIN: string;
  /** Canonical host of DASHBOARD_ORIGIN (lib/hosts.ts). */
  DASHBOARD_HOST: string;
  /** Host of BASE_URL in the canonical spelling of lib/hosts.ts (port only when not 80 or 443): the default domain. */
  DEFAULT_HOST: string;
  DOMAIN_DNS_TARGETS: string[];
  DIALECT: 'sqlite' | 'postgres';
  /** Seconds a cached link may be served without re-reading the database. */
  LINK_CACHE_TTL_S: number;
  /** The click journals' root, or null when CLICK_JOURNAL_DIR is `off` (or the database is SQLite in memory). */
  CLICK_JOURNAL_DIR: string | null;
  /** METRICS_TOKEN or METRICS_PORT is set: the process keeps a Prometheus registry (infra/metrics/registry.ts). */
  METRICS: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  if (!Value.Check(EnvSchema, withDefaults)) {
    const [first] = Value.Errors(EnvSchema, withDefaults);
    throw new ConfigError(`Invalid configuration ${first?.instancePath ?? ''}: ${first?.message ?? 'unknown'}`);
  }
  return finish(withDefaults as Env);
}

function finish(env: Env): Config {
  const baseUrl = (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ConfigError(`BASE_URL is not a URL: ${baseUrl}`);
  }
  const defaultHost = hostKey(parsed);
  if (!defaultHost) throw new ConfigError(`BASE_URL has no host name: ${baseUrl}`);
  const dashboard = dashboardOf(env.DASHBOARD_URL, parsed);
  const dialect = env.DATABASE_URL.startsWith('postgres') ? 'postgres' : 'sqlite';
  if (dialect === 'sqlite' && !env.DATABASE_URL.startsWith('sqlite:')) {
    throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
  }
  // Without a shared invalidation channel, nodes on one PostgreSQL only converge by expiry.
  const defaultTtl = dialect === 'postgres' && !env.REDIS_URL ? 5 : 300;
  return {
    ...env,
    BASE_URL: baseUrl,
    DEFAULT_HOST: defaultHost,
    DASHBOARD_ORIGIN: dashboard.origin,
    DASHBOARD_HOST: dashboard.host,
    DOMAIN_DNS_TARGETS: env.DOMAIN_DNS_TARGETS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    DIALECT: dialect,
    LINK_CACHE_TTL_S: env.LINK_CACHE_TTL_S ?? defaultTtl,
    // Ten keys' worth: half of what MAX_KEYS_PER_ACCOUNT keys would have alone, and it follows a raised RATE_LIMIT_MAX.
    ACCOUNT_RATE_LIMIT_MAX: env.ACCOUNT_RATE_LIMIT_MAX ?? 10 * env.RATE_LIMIT_MAX,
    CLICK_JOURNAL_DIR: journalRoot(env.CLICK_JOURNAL_DIR, env.DATABASE_URL, dialect),
    METRICS: env.METRICS_TOKEN !== undefined || env.METRICS_PORT !== undefined,
  };
}

/**
 * Beside the SQLite file; for PostgreSQL under data/click-journal, in a directory per database (the URL
 * without its password, hashed), so journals are only ever replayed into the database they were counted for.
 */
function journalRoot(value: string | undefined, url: string, dialect: Config['DIALECT']): string | null {
  if (value === 'off') return null;
  if (value) return value;
  if (dialect === 'sqlite') {
    const path = url.slice('sqlite:'.length);
    return path === ':memory:' || path === '' ? null : `${path}.journal`;
  }
  const id = createHash('sha256')
    .update(url.replace(/:[^:@/]*@/, '@'))
    .digest('hex')
    .slice(0, 16);
  return `data/click-journal/${id}`;
}

function dashboardOf(value: string | undefined, base: URL): { origin: string; host: string } {
  let url = base;
  if (value) {
    if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new ConfigError(`DASHBOARD_URL is not an http(s) URL: ${value}`);
    url = new URL(value);
  }
  const host = hostKey(url);
  if (!host) throw new ConfigError(`DASHBOARD_URL has no host name: ${value}`);
  return { origin: url.origin, host };
}
