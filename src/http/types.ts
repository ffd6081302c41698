import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import type { Scope } from '../lib/scopes.js';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What every feature plugin is given: the process's shared services, explicitly (never looked up by the app). */
export interface FeatureOptions {
  ctx: AppContext;
}

/**
 * A feature: an encapsulated Fastify plugin registered with `app.register(feature, { ctx, … })`. Its routes,
 * hooks and state stay inside it; state it creates is released in its own `onClose` hook.
 */
export type Feature<Extra extends object = object> = FastifyPluginAsync<FeatureOptions & Extra, Server, TypeBoxTypeProvider>;

/** The caller behind a valid API key or dashboard session. */
export interface Account {
  userId: number;
  /** Set when the request came with an API key: its hash (the rate-limit bucket) and the key itself. */
  keyHash?: string;
  key?: ApiKeyRef;
  /** Set when it came with a dashboard session cookie: the hash of its token (the session's id) and its CSRF token. */
  session?: { id: string; csrf: string };
}

/** The API key behind a request: its id and name (the activity log's `via`) and the scopes it holds. */
export interface ApiKeyRef {
  id: number;
  name: string;
  scopes: string[];
  /** When the key stops working (`YYYY-MM-DD HH:MM:SS`, UTC), or null. */
  expires: string | null;
}

/**
 * Route `config` flags read by the /api gate. `auth: 'none'` admits callers without credentials (sign-in,
 * setup); `auth: 'session'` admits only a dashboard session. `dashboard: true` routes answer only on the
 * dashboard's host. `scope` is what an
 * API key needs; set by http/scopes.ts from the route's tag and method unless the route names it ('any': no scope).
 */
export interface GateConfig {
  auth?: 'none' | 'session';
  dashboard?: boolean;
  scope?: Scope | 'any';
}

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | null;
  }
}

/** The account of an authenticated /api request; the auth hook guarantees it is set. */
export function accountOf(req: { account: Account | null }): Account {
  if (!req.account) throw new Error('route registered outside the authenticated /api scope');
  return req.account;
}
