import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import type { TargetKind } from '../../db/types.js';
import { port } from '../../lib/port.js';

/** What the checker visits for one target: its destinations (the link's own first) and whether its owner wants it checked. */
export interface Destinations {
  urls: string[];
  enabled: boolean;
  /** The owning account, for its webhooks (link.health); unset for targets without the event. */
  owner?: number;
}

/** One kind of checked target, served by its owning feature (links, QR codes), which imports health. */
export interface HealthSource {
  owns(db: Db, userId: number, id: number): Promise<boolean>;
  /** Ids after `afterId`, ascending, up to `limit`: how the checker learns of new targets without a hook in every writer. */
  idsAfter(db: Db, afterId: number, limit: number): Promise<number[]>;
  /** The destinations of each target that still exists. */
  destinations(db: Db, ids: number[]): Promise<Map<number, Destinations>>;
  /** The target became broken or stopped being broken: drop what caches it (a broken link with a fallback redirects elsewhere). */
  changed(ctx: AppContext, ids: number[]): Promise<void>;
}

export const healthSources = port<Partial<Record<TargetKind, HealthSource>>>('health: links and QR codes');
