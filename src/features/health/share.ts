/** Which account a target counts against: its owner's, or its own when it has none (each is its own share). */
export type ShareKey = string;

/** What a round leased, with the account each target counts against. */
export interface Candidate {
  share: ShareKey;
}

/**
 * A round's fair share per account: picks up to `slots` of the leased candidates (in the order they came, oldest
 * due first), taking one per account in turn, and, while other accounts have targets due or in flight, never more
 * than `perShare` in flight for one account counting those `running` already (alone, an account takes every slot).
 * `over` are left because their account had its share (the round defers them behind the
 * others due); `spare` only for want of slots (handed back as they were).
 */
export function fairPick<T extends Candidate>(
  candidates: T[],
  slots: number,
  running: ReadonlyMap<ShareKey, number>,
  perShare: number,
): { picked: T[]; over: T[]; spare: T[] } {
  const queues = new Map<ShareKey, T[]>();
  for (const c of candidates) queues.set(c.share, [...(queues.get(c.share) ?? []), c]);
  const taken = new Map<ShareKey, number>();
  const shared = new Set([...queues.keys(), ...running.keys()]).size > 1;
  const cap = shared ? perShare : Number.POSITIVE_INFINITY;
  const picked: T[] = [];
  for (let progress = true; progress && picked.length < slots;) {
    progress = false;
    for (const [share, queue] of queues) {
      if (picked.length >= slots) break;
      const inFlight = (running.get(share) ?? 0) + (taken.get(share) ?? 0);
      if (queue.length === 0 || inFlight >= cap) continue;
      picked.push(queue.shift()!);
      taken.set(share, (taken.get(share) ?? 0) + 1);
      progress = true;
    }
  }
  const over: T[] = [];
  const spare: T[] = [];
  for (const [share, queue] of queues) {
    const full = (running.get(share) ?? 0) + (taken.get(share) ?? 0) >= cap;
    (full ? over : spare).push(...queue);
  }
  return { picked, over, spare };
}
