import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** The caller behind a valid API key. */
export interface Account {
  userId: number;
  keyHash: string;
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
