import type { AppContext } from '../../../context.js';
import type { CompiledLink } from '../resolve/compile.js';
import { decide, type Decision, type Visit } from '../decide/decide.js';
import { NOT_FOUND_PAGE } from '../../../lib/error-pages.js';
import { normalizeHost } from '../../../lib/hosts.js';
import { isBot } from '../../../lib/visitor.js';
import { LANDING_PAGE } from '../pages/site.js';
import type { Lookup, Site } from '../resolve/resolver.js';
import { OUTCOME } from '../../../infra/metrics/counters.js';

/**
 * Everything a GET or HEAD of `/{alias}` does except writing the response, free of any framework, so
 * the Fastify route and a lean node:http front answer alike:
 *   const found = resolver.lookup(host, alias, now)           // sync on a cache hit (and a SQLite miss)
 *   const decision = answerVisit(ctx, found, visit)           // records the click when served
 */
export interface ServedVisit extends Visit {
  referer: string;
  /** HEAD is answered like GET but not counted: link checkers and unfurlers send it. */
  method: string;
  /** The Host the visit came to (X-Forwarded-Host behind a trusted proxy). */
  host: string;
}

/**
 * Pixel pages run third-party tag scripts that any account chooses. On the dashboard's host (BASE_URL's when
 * DASHBOARD_URL is unset) such a page would share the dashboard's origin and could call the API with the
 * visitor's session; sandboxed without allow-same-origin it runs in an opaque origin instead, so the
 * SameSite=Strict cookie is not sent with its requests and their answers cannot be read. Everything else
 * the pages do (scripts, forms to mailto:, links out of the page, popups) stays allowed.
 */
export const PIXEL_SANDBOX =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-top-navigation allow-downloads allow-modals';

function sandboxed(decision: Decision): Decision {
  if (decision.kind !== 'page') return decision;
  return { ...decision, page: { html: decision.page.html, csp: `${decision.page.csp}; ${PIXEL_SANDBOX}` } };
}

const page = (status: number, rendered: typeof NOT_FOUND_PAGE): Decision => ({ kind: 'page', status, page: rendered, count: false });
const NOT_FOUND = page(404, NOT_FOUND_PAGE);
const LANDING = page(200, LANDING_PAGE);

/** Counts the answer's outcome (a typed-array increment: infra/metrics/counters.ts) and, when served, the click. */
export function answerVisit(ctx: AppContext, found: Lookup, visit: ServedVisit): Decision {
  if (found.kind !== 'link') {
    ctx.counters.redirects[found.kind === 'bio' ? OUTCOME.bio : OUTCOME.not_found]!++;
    return answerNoLink(found);
  }
  let decision = decide(found, visit, ctx.secret);
  ctx.counters.redirects[decision.outcome!]!++;
  if (found.pixels && normalizeHost(visit.host) === ctx.config.DASHBOARD_HOST) decision = sandboxed(decision);
  if (decision.count && visit.method === 'GET') {
    ctx.clicks.record('link', found.id, found.owner, visit, decision.rule); // only its ip, user agent and referer are kept
    if (found.routing?.cap && !isBot(visit.userAgent)) found.routing.cap.used++; // as the stored count will count it
  }
  return decision;
}

/** A bio page, the branded domain's 404 redirect, or our 404 page. */
export function answerNoLink(found: Exclude<Lookup, CompiledLink>): Decision {
  if (found.kind === 'bio') return { kind: 'page', status: 200, page: found.page, count: false };
  if (found.kind === 'missing' && found.site.notFound) return { kind: 'redirect', status: 302, location: found.site.notFound, count: false };
  return NOT_FOUND;
}

/** `/`: a branded domain's root redirect, else the landing page. */
export function answerRoot(site: Site): Decision {
  return site.root ? { kind: 'redirect', status: 302, location: site.root, count: false } : LANDING;
}
