import { api } from '../../lib/api.js';
import type { BioFull, OverlayFull, SplashFull } from '../../lib/types.js';

/**
 * The three kinds of custom pages: where the API keeps them (`GET /api/{item}/{id}`, `{item}/add`, …), the list's
 * collection key and path, and the dashboard's own address for them.
 */
export const KINDS = {
  splash: { item: 'splash', list: '/splash', collection: 'splash', route: '/splash', title: 'Splash pages', noun: 'splash page' },
  overlay: { item: 'overlay', list: '/overlay', collection: 'cta', route: '/overlays', title: 'Overlays', noun: 'overlay' },
  bio: { item: 'bio', list: '/bio', collection: 'bio', route: '/bio', title: 'Bio pages', noun: 'bio page' },
} as const;
export type Kind = keyof typeof KINDS;

export interface Detail {
  splash: SplashFull;
  overlay: OverlayFull;
  bio: BioFull;
}

export const detailKey = (kind: Kind, id: number) => [KINDS[kind].list, 'detail', id] as const;

export async function getPage<K extends Kind>(kind: K, id: number): Promise<Detail[K]> {
  return (await api.get<{ data: Detail[K] }>(`/${KINDS[kind].item}/${id}`)).data;
}

/** Creates the page, or replaces every field of an existing one (the editor always has them all). */
export async function savePage(kind: Kind, id: number | undefined, body: object): Promise<void> {
  if (id) await api.put(`/${KINDS[kind].item}/${id}/update`, body);
  else await api.post(`/${KINDS[kind].item}/add`, body);
}
