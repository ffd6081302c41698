import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { DomainRow } from '../../db/types.js';
import type { Static } from 'typebox';
import { invalidateDomain } from '../../cache/public-cache.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { crossStandardPort, hostKey, normalizeHost } from '../../lib/hosts.js';
import { optionalHttpUrl } from '../../lib/urls.js';
import { hostPointsAtTargets } from './dns.js';
import { domainLinks } from './ports.js';
import * as repo from './repo.js';
import type { DomainSchema } from './schema.js';

const MAX_HOST = 253;

const hostnameOf = (host: string) => new URL(`http://${host}`).hostname;

/** Cookies ignore ports and reach every subdomain of the Domain they name: hosts that are one name or one under the other share them. */
const sharesCookies = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

/**
 * A branded domain's pages run any account's tag scripts, which can set cookies for the page's host and its parents:
 * the service's own hosts and every host sharing cookies with them stay out of reach, so no tag can plant a session.
 */
function refuseOwnHosts(ctx: AppContext, host: string): void {
  // The dashboard's host too: a branded domain there would serve accounts' pixel pages on the dashboard's origin.
  if (host === ctx.config.DEFAULT_HOST || host === ctx.config.DASHBOARD_HOST) throw fail('domain_own_host', host);
  for (const own of [ctx.config.DASHBOARD_HOST, ctx.config.DEFAULT_HOST]) {
    if (sharesCookies(hostnameOf(host), hostnameOf(own))) throw fail('domain_reserved', host, own);
  }
}

export type DomainView = Static<typeof DomainSchema>;

function toView(row: DomainRow): DomainView {
  return { id: row.id, domain: `${row.scheme}://${row.host}`, redirectroot: row.redirect_root, redirect404: row.redirect_404 };
}

/** Scheme and canonical host (see lib/hosts.ts) of a domain address; anything more is refused. */
export function parseDomainAddress(value: string): { scheme: string; host: string } {
  const text = value.trim();
  if (!URL.canParse(text)) throw fail('domain_invalid');
  const url = new URL(text);
  const extra = url.pathname !== '/' || url.search || url.hash || url.username || url.password;
  if (!['http:', 'https:'].includes(url.protocol) || extra) throw fail('domain_invalid');
  if (crossStandardPort(url)) throw fail('domain_cross_port', url.protocol, url.hostname, url.port);
  const host = hostKey(url);
  if (!host || host.length > MAX_HOST) throw fail('domain_invalid');
  return { scheme: url.protocol.slice(0, -1), host };
}

export async function listDomains(ctx: AppContext, userId: number, query: { limit?: number; page?: number }): Promise<ListData<DomainView>> {
  const page = toPage(query);
  const [total, rows] = await Promise.all([repo.countDomains(ctx.db, userId), repo.listDomains(ctx.db, userId, page)]);
  return listData(page, total, rows.map(toView));
}

export async function addDomain(
  ctx: AppContext,
  userId: number,
  input: { domain: string; redirectroot?: string; redirect404?: string },
): Promise<number> {
  const { scheme, host } = parseDomainAddress(input.domain);
  refuseOwnHosts(ctx, host);
  const redirect_root = optionalHttpUrl(input.redirectroot, 'redirectroot');
  const redirect_404 = optionalHttpUrl(input.redirect404, 'redirect404');
  const existing = await repo.findDomainByHost(ctx.db, host);
  if (existing) throw existing.user_id === userId ? fail('domain_taken') : fail('domain_taken_elsewhere', host);
  // Cookies and sites ignore ports: a host name belongs to one account on every port (docs/decisions/0013-*).
  const variant = await repo.findPortVariantElsewhere(ctx.db, hostnameOf(host), userId);
  if (variant) throw fail('domain_port_taken_elsewhere', host, variant.host);
  const targets = ctx.config.DOMAIN_DNS_TARGETS;
  if (targets.length > 0 && !(await hostPointsAtTargets(host, targets))) throw fail('domain_not_pointing', host, targets.join(' or '));
  let id: number;
  try {
    id = await repo.insertDomain(ctx.db, { user_id: userId, host, scheme, redirect_root, redirect_404, created_at: nowTimestamp() });
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('domain_taken');
    throw error;
  }
  // A node may have cached this host as unknown.
  invalidateDomain(ctx, host);
  return id;
}

async function ownDomain(ctx: AppContext, userId: number, id: number): Promise<DomainRow> {
  const row = await repo.findDomain(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Domain');
  return row;
}

export async function updateDomain(
  ctx: AppContext,
  userId: number,
  id: number,
  input: { redirectroot?: string; redirect404?: string },
): Promise<void> {
  const row = await ownDomain(ctx, userId, id);
  if (input.redirectroot === undefined && input.redirect404 === undefined) throw fail('nothing_to_update', 'redirectroot or redirect404');
  const changes: { redirect_root?: string; redirect_404?: string } = {};
  if (input.redirectroot !== undefined) changes.redirect_root = optionalHttpUrl(input.redirectroot, 'redirectroot');
  if (input.redirect404 !== undefined) changes.redirect_404 = optionalHttpUrl(input.redirect404, 'redirect404');
  await repo.updateDomain(ctx.db, id, changes);
  invalidateDomain(ctx, row.host);
}

/** Refused while links use the domain: deleting it would silently break addresses people were given. */
export async function deleteDomain(ctx: AppContext, userId: number, id: number): Promise<void> {
  const row = await ownDomain(ctx, userId, id);
  const links = domainLinks();
  if (!(await repo.deleteDomainIf(ctx.db, id, links.noLinkOn(id)))) throw fail('domain_has_links', await links.countOn(ctx.db, id));
  invalidateDomain(ctx, row.host);
}

/**
 * The caller's branded domain at an address in any spelling ("https://go.example.com" or "go.example.com"):
 * null for the service's own host (the default domain), undefined when no domain of the caller's is there.
 */
export async function ownDomainAt(ctx: AppContext, userId: number, value: string): Promise<DomainRow | null | undefined> {
  const host = normalizeHost(
    value
      .trim()
      .replace(/^https?:\/\//i, '')
      .replace(/\/$/, ''),
  );
  if (host && host === ctx.config.DEFAULT_HOST) return null;
  const row = host ? await repo.findDomainByHost(ctx.db, host) : undefined;
  return row?.user_id === userId ? row : undefined;
}

/**
 * The caller's branded domain named by a link request ("https://go.example.com" or "go.example.com");
 * null for the default domain (absent, false, "" or the service's own host).
 */
export async function resolveLinkDomain(ctx: AppContext, userId: number, value: string | boolean | null | undefined): Promise<DomainRow | null> {
  if (value === undefined || value === null || value === false || (typeof value === 'string' && value.trim() === '')) return null;
  const row = typeof value === 'string' ? await ownDomainAt(ctx, userId, value) : undefined;
  if (row === undefined)
    throw fail(
      'invalid_field',
      `Unknown domain "${String(value)}": use one of your branded domains from GET /api/domains, or leave it out for the default domain.`,
    );
  return row;
}
