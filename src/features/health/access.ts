import type { Db } from '../../db/connect.js';
import type { TargetKind } from '../../db/types.js';
import type { HealthView } from './schema.js';
import * as repo from './repo.js';
import { formatTimestamp } from '../../lib/time.js';

/** What other features may read and write of health_checks; the SQL stays in repo.ts. */

export { Health, HEALTH_STATUSES, type HealthView } from './schema.js';
export { brokenNow, idsWithStatus } from './repo.js';
export { healthSources, type HealthSource } from './ports.js';

export const UNKNOWN: HealthView = { status: 'unknown', code: null, checked: null, since: null };

/** The health of each target, `UNKNOWN` for those never checked. */
export async function healthOf(db: Db, kind: TargetKind, ids: number[]): Promise<Map<number, HealthView>> {
  const rows = await repo.healthRows(db, kind, ids);
  const found = new Map(
    rows.map((r) => [Number(r.target_id), { status: r.status as HealthView['status'], code: r.code, checked: r.checked_at, since: r.since }]),
  );
  return new Map(ids.map((id) => [id, found.get(id) ?? UNKNOWN]));
}

/** A target whose destinations changed: what was found of the old ones no longer holds, and it is checked in the next round. */
export function destinationsChanged(db: Db, kind: TargetKind, id: number): Promise<void> {
  return repo.reset(db, kind, id, formatTimestamp(new Date()));
}

/**
 * Which of a target's destinations (as its source lists them) were last found broken; empty when it has one
 * destination, or was last checked before its destinations were told apart: then all of them count as broken.
 */
export async function brokenDestinations(db: Db, kind: TargetKind, id: number, urls: string[]): Promise<Set<string>> {
  const broken = await repo.brokenNumbers(db, kind, id);
  return new Set(urls.filter((url) => broken.has(repo.destinationNumber(url))));
}

/** The targets' health goes with them, inside their delete transaction. */
export function forgetHealth(trx: Db, kind: TargetKind, ids: number[]): Promise<void> {
  return repo.forget(trx, kind, ids);
}
