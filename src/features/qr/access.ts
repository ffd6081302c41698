import type { Db } from '../../db/connect.js';
import { forgetTargets } from '../../clicks/forget.js';
import { dateOnly } from '../../lib/time.js';
import type { ItemSource } from '../channels/ports.js';
import type { HealthSource } from '../health/access.js';
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

/** The URL a link code's tracking address sends scanners to; '' when its stored content has none. */
function codeUrl(data: string): string {
  try {
    const content = JSON.parse(data) as { url?: unknown };
    return typeof content.url === 'string' ? content.url : '';
  } catch {
    return '';
  }
}

/** Link codes as the health checker's targets: plugged into health by src/compose.ts. */
export const qrHealthSource: HealthSource = {
  owns: repo.ownsQr,
  idsAfter: repo.linkCodeIdsAfter,
  destinations: async (db, ids) =>
    new Map(
      (await repo.linkCodeContents(db, ids))
        .map((row) => [Number(row.id), codeUrl(row.data)] as const)
        .filter(([, url]) => url !== '')
        .map(([id, url]) => [id, { urls: [url], enabled: true }]),
    ),
  // Nothing a scan serves depends on the code's health.
  changed: async () => {},
};
