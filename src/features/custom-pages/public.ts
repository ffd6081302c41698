import type { Db } from '../../db/connect.js';
import type { BioRow, OverlayRow, SplashRow } from '../../db/types.js';
import { dateOnly } from '../../lib/time.js';
import type { ItemSource } from '../channels/ports.js';
import * as repo from './repo.js';

/** What the redirect feature reads to show these pages to visitors; ownership is its own check. */

export function splashPage(db: Db, id: number): Promise<SplashRow | undefined> {
  return repo.findSplashById(db, id);
}

export function overlay(db: Db, id: number): Promise<OverlayRow | undefined> {
  return repo.findOverlayById(db, id);
}

export function bioPageByAlias(db: Db, alias: string): Promise<BioRow | undefined> {
  return repo.findBioByAlias(db, alias);
}

/** What links asks (through src/compose.ts): whether the account owns a splash page or an overlay. */
export function ownsPage(db: Db, kind: 'splash' | 'overlay', userId: number, id: number): Promise<boolean> {
  return repo.ownsPage(db, kind === 'splash' ? 'splash_pages' : 'overlays', userId, id);
}

export { bioAliasesTaken } from './repo.js';

/** Bio pages as channel items: plugged into channels by src/compose.ts. */
export const bioItemSource: ItemSource = {
  owns: (db, userId, id) => repo.ownsPage(db, 'bio_pages', userId, id),
  alive: repo.bioAlive,
  views: async (ctx, ids) =>
    new Map(
      (await repo.biosByIds(ctx.db, ids)).map((b) => {
        const url = `${ctx.config.BASE_URL}/${b.alias}`;
        return [b.id, { title: b.name, preview: url, link: url, date: dateOnly(b.created_at) }];
      }),
    ),
};
