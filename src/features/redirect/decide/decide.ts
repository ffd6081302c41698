import { DEFAULT_RULE } from '../../../clicks/visit-columns.js';
import type { RenderedPage } from '../../../lib/html.js';
import type { CompiledLink } from '../resolve/compile.js';
import { forwardPage, framePage, ogPage, overlayPage, splashPage } from '../pages/link.js';
import { isUnlocked, unlockCookie } from './password.js';
import type { GuessGuard } from './guesses.js';
import { busyPage, continuePage, expiredPage, passwordPage, throttledPage } from '../pages/site.js';
import { target, type Visitor } from './targeting.js';
import { destinationOf, exhausted, route } from './routing.js';
import { agentFacts } from './checks.js';
import { OUTCOME, type Outcome } from '../../../infra/metrics/counters.js';

/**
 * What to answer a visit. `count` says whether it is a served human visit (the caller records it),
 * `rule` which target rule chose its destination (a compiled constant: `default`, `device:iphone`, …), and
 * `outcome` what kind of answer it is for redirectory_redirects_total (set on every decision of a link).
 */
export type Decision =
  | { kind: 'redirect'; status: 302; location: string; count: boolean; rule?: string; outcome?: Outcome }
  | {
      kind: 'page';
      status: number;
      page: RenderedPage;
      count: boolean;
      rule?: string;
      retryAfter?: number;
      setCookie?: string;
      outcome?: Outcome;
    };

export interface Visit extends Visitor {
  /** The Cookie header, for unlocked password links. */
  cookie: string | undefined;
  now: number;
  /** The request's path and query, for rules on query parameters; absent: no query. */
  url?: string;
}

const page = (outcome: Outcome, status: number, rendered: RenderedPage, count = false, retryAfter?: number, rule?: string): Decision => ({
  kind: 'page',
  status,
  page: rendered,
  count,
  rule,
  retryAfter,
  outcome,
});

/**
 * One visit of a link, in the order: expired → password → (crawler preview) → targeting → type.
 * Synchronous and free of I/O: everything it needs was compiled into the cached link.
 */
export function decide(link: CompiledLink, visit: Visit, secret: string): Decision {
  if (link.expiresAt !== null && visit.now >= link.expiresAt) return expired(link);
  if (link.routing !== null && exhausted(link.routing)) return expired(link);
  if (link.passwordHash !== null && !isUnlocked(secret, link, visit.cookie, visit.now)) return page(OUTCOME.password, 200, passwordPage(link, ''));
  const agent = agentFacts(visit.userAgent); // also routing's: one lookup of the user agent a visit
  // Link-preview fetchers of social networks and chat apps (checks.ts lists them) get the Open Graph page.
  if (agent.crawler) return page(OUTCOME.preview, 200, ogPage(link));
  const plan = link.routing;
  const chosen = plan !== null ? route(plan, link.targeting, visit, agent) : link.targeting ? target(link.targeting, visit) : undefined;
  const routed = typeof chosen === 'number';
  const destination = routed ? destinationOf(plan!, chosen) : chosen ? chosen.destination : link.destination;
  const rule = routed ? plan!.shape.labels[chosen]! : chosen ? chosen.rule : DEFAULT_RULE;
  switch (link.type) {
    case 'frame':
      return page(OUTCOME.page, 200, framePage(link, destination), true, undefined, rule);
    case 'splash':
      return page(OUTCOME.page, 200, splashPage(link, destination), true, undefined, rule);
    case 'overlay':
      return page(OUTCOME.page, 200, overlayPage(link, destination), true, undefined, rule);
    default:
      if (link.pixels) return page(OUTCOME.page, 200, forwardPage(link, destination), true, undefined, rule);
      return { kind: 'redirect', status: 302, location: destination, count: true, rule, outcome: OUTCOME.redirect };
  }
}

/** An expired or exhausted link: its expiredurl when it has one (not counted), else the 410 page. */
function expired(link: CompiledLink): Decision {
  const elsewhere = link.routing?.expiredUrl;
  if (elsewhere) return { kind: 'redirect', status: 302, location: elsewhere, count: false, rule: undefined, outcome: OUTCOME.expired };
  return page(OUTCOME.expired, 410, expiredPage(link, link.routing !== null && exhausted(link.routing)));
}

const INVALID_PASSWORD = 'That password is not right. Please try again.';

/**
 * The password form's POST: counted and refused while throttled (before any hashing), verified with argon2 on the
 * link passwords' own lane (refused at once when it is full), and on success a signed cookie plus a page that
 * continues to the link (pages/site.ts says why not a redirect).
 */
export async function submitPassword(
  link: CompiledLink,
  input: { password: string; ip: string; now: number },
  secret: string,
  guard: GuessGuard,
): Promise<Decision> {
  if (link.expiresAt !== null && input.now >= link.expiresAt) return expired(link);
  if (link.routing !== null && exhausted(link.routing)) return expired(link);
  if (link.passwordHash === null) return page(OUTCOME.password, 200, continuePage(link));
  if (!input.password) return page(OUTCOME.password, 400, passwordPage(link, 'Enter the password to continue.'));
  const wait = await guard.count(link.id, input.ip, input.now);
  if (wait > 0) return page(OUTCOME.password, 429, throttledPage(wait), false, wait);
  const checking = guard.check(link.passwordHash, input.password);
  if (!checking) {
    await guard.uncount(link.id, input.ip, input.now);
    return page(OUTCOME.password, 429, busyPage(), false, 1);
  }
  if (!(await checking)) return page(OUTCOME.password, 401, passwordPage(link, INVALID_PASSWORD));
  await guard.uncount(link.id, input.ip, input.now);
  return { kind: 'page', status: 200, page: continuePage(link), count: false, setCookie: unlockCookie(secret, link, input.now) };
}
