import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** The caller behind a valid API key or dashboard session. */
export interface Account {
  userId: number;
  /** Set when the request came with an API key. */
  keyHash?: string;
  /** Set when it came with a dashboard session cookie: the hash of its token (the session's id) and its CSRF token. */
  session?: { id: string; csrf: string };
}

/**
 * Route `config` flags read by the /api gate. `auth: 'none'` admits callers without credentials (sign-in,
 * setup); `auth: 'session'` admits only a dashboard session. `dashboard: true` routes answer only on the
 * dashboard's host.
 */
export interface GateConfig {
  auth?: 'none' | 'session';
  dashboard?: boolean;
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
