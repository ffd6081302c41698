import type { Db } from '../../db/connect.js';
import { forgetTargets } from '../../clicks/forget.js';
import { dateOnly } from '../../lib/time.js';
import type { ItemSource } from '../channels/ports.js';
import * as repo from './repo.js';

/** What other features may read of QR codes; the SQL stays in repo.ts. */
export { ownsQr, qrAlive, qrIdsOf, qrNames } from './repo.js';

/** The account's codes' scans go with the account, inside its delete transaction. */
export async function forgetAccountQrs(trx: Db, userId: number): Promise<void> {
  await forgetTargets(trx, 'qr', await repo.qrIdsOfUser(trx, userId), null);
}

/** QR codes as channel items: plugged into channels by src/compose.ts. */
export const qrItemSource: ItemSource = {
  owns: repo.ownsQr,
  alive: repo.qrAlive,
  views: async (ctx, ids) =>
    new Map(
      (await repo.qrNames(ctx.db, ids)).map((q) => {
        const url = `${ctx.config.BASE_URL}/qr/${q.slug}`;
        return [q.id, { title: q.name, preview: url, link: url, date: dateOnly(q.created_at) }];
      }),
    ),
};
