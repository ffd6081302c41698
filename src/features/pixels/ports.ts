import type { AppContext } from '../../context.js';
import { port } from '../../lib/port.js';

/** What pixels asks of links, which imports pixels: plugged in by src/compose.ts. */
export interface PixelLinks {
  /** Drops the cached copies of links whose pixels changed (they serve the pixels' tags). */
  changed(ctx: AppContext, linkIds: number[]): Promise<void>;
}

export const pixelLinks = port<PixelLinks>('pixels: link invalidation');
