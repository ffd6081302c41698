import type { RequestListener } from 'node:http';
import type { Config } from '../config.js';
import { normalizeHost } from '../lib/hosts.js';
import { requestHost } from './request-host.js';

/**
 * The hosts told to use https only: BASE_URL's and DASHBOARD_URL's, each when configured as https. Branded
 * domains are left to the proxy that terminates their TLS, and includeSubDomains is never sent: hosts under
 * the short domain (branded, marketing, CDN names) may be served over plain http by someone else.
 */
function strictTransportHosts(config: Config): Set<string> {
  const hosts = new Set<string>();
  if (config.HSTS_MAX_AGE === 0) return hosts;
  if (config.BASE_URL.startsWith('https:')) hosts.add(config.DEFAULT_HOST);
  if (config.DASHBOARD_ORIGIN.startsWith('https:')) hosts.add(config.DASHBOARD_HOST);
  return hosts;
}

/**
 * Wraps the server's listener so every answer on those hosts (the lean front's redirects as well as
 * Fastify's) carries Strict-Transport-Security. Browsers ignore it over plain http, so a node behind a
 * TLS-terminating proxy may send it without knowing the scheme the visitor used.
 */
export function strictTransport(config: Config, listener: RequestListener): RequestListener {
  const hosts = strictTransportHosts(config);
  if (hosts.size === 0) return listener;
  const value = `max-age=${config.HSTS_MAX_AGE}`;
  const hostOf = requestHost(config.TRUST_PROXY);
  const named = (raw: string) => hosts.has(raw) || (MAYBE_RESPELLED.test(raw) && hosts.has(normalizeHost(raw) ?? ''));
  return (req, res) => {
    const raw = hostOf(req);
    if (raw !== undefined && named(raw)) res.setHeader('strict-transport-security', value);
    listener(req, res);
  };
}

/** A Host that may respell a canonical name (case, port, final dot, IDN); the rest are canonical already (browsers ignore HSTS on IP literals). */
const MAYBE_RESPELLED = /[^a-z0-9.-]|\.$/;
