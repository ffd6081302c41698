import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { port } from '../../lib/port.js';

/**
 * What links asks of campaigns and custom pages, which import links to change the links that use them:
 * plugged in by src/compose.ts.
 */
export interface LinkNeighbours {
  ownsCampaign(db: Db, userId: number, id: number): Promise<boolean>;
  /** Rotators reload their link lists after a link joined or left these campaigns (null and 0 are ignored). */
  campaignsChanged(ctx: AppContext, campaignIds: Array<number | null | undefined>): Promise<void>;
  ownsPage(db: Db, kind: 'splash' | 'overlay', userId: number, id: number): Promise<boolean>;
  /** Which of the aliases bio pages hold (all but bio page `exceptId`): they share the default domain's alias space. */
  bioAliasesTaken(db: Db, aliases: string[], exceptId?: number): Promise<Set<string>>;
}

export const linkNeighbours = port<LinkNeighbours>('links: campaigns and custom pages');
