import type { FastifyRequest } from 'fastify';
import { agentFamily } from '../lib/agent-family.js';
import { ipPrefix } from '../lib/ip-prefix.js';

/** Who did something, as the account activity log keeps it: never a full address or User-Agent. */
export interface Actor {
  /** The API key's name, `session` (the dashboard, or a sign-in) or `cli`. */
  via: string;
  /** IPv4 /24 or IPv6 /48, or "". */
  ip: string;
  /** Browser and OS family, a tool's family, or "". */
  agent: string;
}

export const CLI_ACTOR: Actor = { via: 'cli', ip: '', agent: '' };

export function actorOf(req: FastifyRequest): Actor {
  return { via: req.account?.key?.name ?? 'session', ip: ipPrefix(req.ip), agent: agentFamily(req.headers['user-agent']) };
}
