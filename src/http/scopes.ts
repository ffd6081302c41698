import type { RouteOptions } from 'fastify';
import { fail } from '../lib/errors.js';
import { grants, type Scope, type ScopeArea } from '../lib/scopes.js';
import type { Account, App, GateConfig } from './types.js';

/** The API area of each OpenAPI tag: a route's tag says which scope guards it. */
const AREA_OF_TAG: Record<string, ScopeArea> = {
  account: 'account',
  links: 'links',
  qr: 'qr',
  domains: 'domains',
  campaigns: 'campaigns',
  channels: 'channels',
  pixels: 'pixels',
  'bio pages': 'pages',
  'splash pages': 'pages',
  overlays: 'pages',
  stats: 'stats',
};

const READS = new Set(['GET', 'HEAD']);

/**
 * The scope an API key needs for a route: the route's own `config.scope`, else its tag's area with `read` for
 * GET/HEAD and `write` for the rest. Null for routes no key reaches (`auth: 'none'` or `'session'`). Throws for a
 * route that has neither, so a new route cannot be registered unscoped.
 */
export function scopeOfRoute(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): Scope | 'any' | null {
  const config = (route.config ?? {}) as GateConfig;
  if (config.scope) return config.scope;
  if (config.auth) return null;
  const tags = ((route.schema ?? {}) as { tags?: string[] }).tags ?? [];
  const areas = new Set(tags.map((tag) => AREA_OF_TAG[tag]));
  const methods = [route.method].flat();
  const area = [...areas][0];
  if (areas.size !== 1 || !area || methods.some((m) => READS.has(m)) !== methods.every((m) => READS.has(m))) {
    throw new Error(`${methods.join(',')} ${route.url}: no API key scope (tag it with one area, or set config.scope)`);
  }
  return `${area}:${READS.has(methods[0]!) ? 'read' : 'write'}`;
}

/**
 * Stamps every route registered on `api` after this call with its scope (config.scope) for the gate, and writes
 * it into the OpenAPI document (`x-scope` and a line of the description; `x-auth` for session-only and open routes).
 */
export function scopeRoutes(api: App): void {
  api.addHook('onRoute', (route) => {
    const scope = scopeOfRoute(route);
    const schema = { ...(route.schema as Record<string, unknown> | undefined) };
    if (scope) {
      route.config = { ...(route.config as object), scope } as typeof route.config;
      schema['x-scope'] = scope;
      if (scope !== 'any') schema.description = `${schema.description ? `${String(schema.description)}\n\n` : ''}API key scope: \`${scope}\`.`;
    } else {
      schema['x-auth'] = (route.config as GateConfig).auth;
    }
    route.schema = schema;
  });
}

/**
 * For a request that, by what it asks, does what another endpoint guards with `scope`: an API key must hold that
 * scope as well (403 `scope_missing`, as the gate answers); a dashboard session holds every scope.
 */
export function requireScope(account: Account, scope: Scope): void {
  if (account.key && !grants(account.key.scopes, scope)) throw fail('scope_missing', scope);
}
