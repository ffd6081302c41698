import type { RawBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import { port } from '../../lib/port.js';

type Owns = (db: Db, userId: number, id: number) => Promise<boolean>;

/**
 * What statistics ask of the owners of links, QR codes and campaigns, which import stats for their own
 * figures: plugged in by src/compose.ts. Id sets are subqueries, so ids stay in the database.
 */
export interface StatsTargets {
  owns: { link: Owns; qr: Owns; campaign: Owns };
  /** The account's link or QR code ids (within `among`, a subquery of ids, when given). */
  linkIds(userId: number, among?: RawBuilder<number>): RawBuilder<number>;
  qrIds(userId: number, among?: RawBuilder<number>): RawBuilder<number>;
  campaignLinkIds(userId: number, campaignId: number): RawBuilder<number>;
  linkNames(
    db: Db,
    ids: number[],
    userId: number,
  ): Promise<Array<{ id: number; alias: string; title: string; meta_title: string; host: string | null; scheme: string | null }>>;
  qrNames(db: Db, ids: number[], userId: number): Promise<Array<{ id: number; name: string }>>;
}

export const statsTargets = port<StatsTargets>('stats: links, QR codes and campaigns');
