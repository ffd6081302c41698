import type { Db } from '../../db/connect.js';
import type { BioRow, OverlayRow, SplashRow } from '../../db/types.js';
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
