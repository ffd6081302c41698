import { BoundedCache } from '../lib/bounded-cache.js';
import { targetNumber, type TargetBatch } from './derive.js';

/** Targets whose stored visitors are remembered, and how many visitors each at most. */
const TARGETS = 20_000;
const PER_TARGET = 64;
/** A target seen in an earlier batch whose visitors are not remembered yet (shared, never added to). */
const SEEN: Set<string> = new Set();

/**
 * Visitor pairs a click writer has committed lately: most clicks are repeat visits, and a pair stored
 * stays stored until its target is deleted, so it needs no insert. Kept per target as a set of the
 * visitor hashes themselves (strings the aggregator has hashed already), so a lookup builds no key.
 * Only targets seen in an earlier batch remember their visitors: at 1M links few targets recur, and
 * remembering each pair of a one-off target cost more than its insert (docs/performance.md#writer-fold).
 * What a batch adds is kept only once its transaction commits (`commit`), so a rolled-back batch leaves
 * nothing behind. A deleted target's clicks are dropped (its tombstone lasts a day) before this is asked,
 * and writers `clear` at each hourly prune, so no pair outlives its target's tombstone.
 */
export class KnownVisitors {
  private readonly targets = new BoundedCache<number, Set<string>>(TARGETS);
  private queued: Array<number | Set<string> | string> = [];

  /** The visitors of `target` known stored, or null for a target first seen in this batch. */
  of(target: TargetBatch): Set<string> | null {
    const number = targetNumber(target.kind, target.id);
    const set = this.targets.get(number);
    if (set === undefined) {
      this.queued.push(number, '');
      return null;
    }
    if (set !== SEEN) return set;
    const fresh = new Set<string>();
    this.targets.set(number, fresh);
    return fresh;
  }

  /** `visitor` of the target whose set this is counts as stored once the batch commits. */
  stored(set: Set<string>, visitor: string): void {
    this.queued.push(set, visitor);
  }

  /** The batch committed: what it stored is known from now on. */
  commit(): void {
    const queued = this.queued;
    for (let i = 0; i < queued.length; i += 2) {
      const [what, visitor] = [queued[i]!, queued[i + 1] as string];
      if (typeof what === 'number') this.targets.set(what, SEEN);
      else if (what instanceof Set && what.size < PER_TARGET) what.add(visitor);
    }
    this.queued = [];
  }

  /** The batch failed: nothing it tried counts as stored. */
  rollback(): void {
    this.queued = [];
  }

  clear(): void {
    this.targets.clear();
    this.queued = [];
  }
}
