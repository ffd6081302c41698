import type { IncomingMessage } from 'node:http';

/** The Host a request names, as Fastify's `request.host` reads it: with TRUST_PROXY, the last X-Forwarded-Host entry, else Host. */
export function requestHost(trustProxy: boolean): (req: IncomingMessage) => string | undefined {
  return trustProxy ? forwardedHost : plainHost;
}

function plainHost(req: IncomingMessage): string | undefined {
  return req.headers.host;
}

/** As Fastify's `request.host` with trustProxy: true — the last X-Forwarded-Host entry, else Host — so both resolve one site. */
function forwardedHost(req: IncomingMessage): string | undefined {
  const header = req.headers['x-forwarded-host'];
  if (typeof header !== 'string' || header === '') return req.headers.host;
  const comma = header.lastIndexOf(',');
  return (comma === -1 ? header : header.slice(comma + 1)).trim();
}
