import type { Db } from '../../db/connect.js';
import { nowTimestamp } from '../../lib/time.js';
import type { ItemType } from './ports.js';
import * as repo from './repo.js';

/** What other features may read and write of channels and their items; the SQL stays in repo.ts. */

export { channelItemIds, firstChannelOf, ownsChannel } from './repo.js';

/** Adds the item to a channel; already there is fine. Takes the item owner's transaction. */
export function addToChannel(db: Db, channelId: number, type: ItemType, itemId: number): Promise<void> {
  return repo.assignItem(db, channelId, type, itemId, nowTimestamp());
}

/** The item leaves every channel; for its owner's delete, inside its transaction. */
export function forgetItem(db: Db, type: ItemType, itemId: number): Promise<void> {
  return repo.forgetItem(db, type, itemId);
}
