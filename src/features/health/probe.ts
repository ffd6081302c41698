import type { OutboundClient, OutboundRequest, Outcome } from '../../infra/outbound/client.js';

export type HealthStatus = 'ok' | 'broken' | 'unreachable' | 'unknown';

export interface Verdict {
  status: HealthStatus;
  /** The final answer's HTTP status; null when there was none (or the redirects went in circles). */
  code: number | null;
}

/** 2xx/3xx: ok; 4xx/5xx or redirects in circles or beyond the limit: broken; no answer at all: unreachable. */
function verdictOf(outcome: Outcome): Verdict {
  if (outcome.ok) return { status: outcome.status >= 400 ? 'broken' : 'ok', code: outcome.status };
  const broken = outcome.failure === 'redirect_loop' || outcome.failure === 'too_many_redirects' || outcome.failure === 'bad_redirect';
  return { status: broken ? 'broken' : 'unreachable', code: null };
}

/** How a check's probes wait: its deadline (the link's budget this round) and the host gate's terms. */
export type ProbeTerms = Required<Pick<OutboundRequest, 'maxWaitMs' | 'deadline' | 'failWhileBackingOff'>>;

/** HEAD first; servers that refuse or mishandle it (405, 501, any 4xx/5xx) are asked again with GET, whose answer counts. */
export async function probe(client: OutboundClient, url: string, terms: ProbeTerms): Promise<Verdict> {
  const head = await client.request(url, { method: 'HEAD', ...terms });
  if (!head.ok || head.status < 400) return verdictOf(head);
  return verdictOf(await client.request(url, { method: 'GET', ...terms }));
}

const SEVERITY: Record<HealthStatus, number> = { unknown: 0, ok: 1, unreachable: 2, broken: 3 };

/** The worse of two verdicts (the first of equals). */
export const worse = (a: Verdict, b: Verdict): Verdict => (SEVERITY[b.status] > SEVERITY[a.status] ? b : a);

/**
 * A target's health is its worst destination's (the first of equals): one broken destination makes the target
 * broken. Also answers which destinations were found broken, for a fallback that replaces only those, and how
 * many were probed: starting at `from` (wrapping), until the deadline; a probe the deadline cut short does not
 * count, so the next round asks it again (the first always counts, so each check moves on).
 */
export async function probeAll(
  client: OutboundClient,
  urls: string[],
  terms: ProbeTerms,
  from = 0,
): Promise<{ verdict: Verdict; broken: string[]; probed: number }> {
  let worst: Verdict = { status: 'unknown', code: null };
  const broken: string[] = [];
  let probed = 0;
  for (; probed < urls.length && (probed === 0 || Date.now() < terms.deadline); probed++) {
    const url = urls[(from + probed) % urls.length]!;
    const verdict = await probe(client, url, terms);
    if (probed > 0 && verdict.status === 'unreachable' && Date.now() >= terms.deadline) break;
    if (verdict.status === 'broken') broken.push(url);
    worst = worse(worst, verdict);
  }
  return { verdict: worst, broken, probed };
}

/** A check cut short keeps what earlier checks found of the destinations it did not reach: those found broken stay so. */
export function carryOver(
  urls: string[],
  from: number,
  probed: Awaited<ReturnType<typeof probeAll>>,
  wasBroken: (url: string) => boolean,
): { verdict: Verdict; broken: string[]; whole: boolean } {
  if (probed.probed >= urls.length) return { ...probed, whole: true };
  const rest = Array.from({ length: urls.length - probed.probed }, (_, i) => urls[(from + probed.probed + i) % urls.length]!);
  const carried = rest.filter(wasBroken);
  const verdict = carried.length > 0 ? worse(probed.verdict, { status: 'broken', code: null }) : probed.verdict;
  return { verdict, broken: [...probed.broken, ...carried], whole: false };
}
