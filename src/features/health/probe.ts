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

/**
 * A target's health is its worst destination's (the first of equals): one broken destination makes the target
 * broken. Also answers which destinations were found broken, for a fallback that replaces only those.
 */
export async function probeAll(client: OutboundClient, urls: string[], terms: ProbeTerms): Promise<{ verdict: Verdict; broken: string[] }> {
  let worst: Verdict = { status: 'unknown', code: null };
  const broken: string[] = [];
  for (const url of urls) {
    const verdict = await probe(client, url, terms);
    if (verdict.status === 'broken') broken.push(url);
    if (SEVERITY[verdict.status] > SEVERITY[worst.status]) worst = verdict;
  }
  return { verdict: worst, broken };
}
