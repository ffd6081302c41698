import type { Db } from '../../db/connect.js';
import { channelItemIds, ownsChannel } from '../channels/access.js';
import { statsTargets } from './ports.js';
import type { SeriesScope } from '../../clicks/series-repo.js';

/** Whether the account owns that link, QR code, campaign or channel. */
export function owns(db: Db, what: 'link' | 'qr' | 'campaign' | 'channel', userId: number, id: number): Promise<boolean> {
  return what === 'channel' ? ownsChannel(db, userId, id) : statsTargets().owns[what](db, userId, id);
}

/** The targets of an account's series: all of them (its own buckets), one campaign's links, or one channel's links and codes. */
export function accountScope(userId: number, campaignId?: number, channelId?: number): SeriesScope {
  const targets = statsTargets();
  if (campaignId) return { sets: [{ kind: 'link', ids: targets.campaignLinkIds(userId, campaignId) }] };
  if (channelId) {
    return {
      sets: [
        { kind: 'link', ids: targets.linkIds(userId, channelItemIds(channelId, 'links')) },
        { kind: 'qr', ids: targets.qrIds(userId, channelItemIds(channelId, 'qr')) },
      ],
    };
  }
  return { account: userId };
}
