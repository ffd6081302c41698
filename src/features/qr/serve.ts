import type { AppContext } from '../../context.js';
import { cacheKeys } from '../../lib/cache-keys.js';
import { imageKey, inTurn, type QrCaches, type QrImage, type ScanTarget } from './cache.js';
import { MAX_SIZE, renderPng, renderSvg, type QrStyle } from './render.js';
import * as repo from './repo.js';
import { payloadFor } from './service.js';
import { DEFAULT_BACKGROUND, DEFAULT_FOREGROUND, logoOf, parseRgb } from './style.js';

export type ImageFormat = 'png' | 'svg';

export const MIN_SIZE = 64;
export const DEFAULT_SIZE = 300;
/**
 * The only sizes ever rendered: any ?size= is served at the nearest step (by ratio). Every distinct size
 * was a separate render and cache entry, so a caller cycling through sizes made the server redraw large
 * images endlessly; with a few steps the image cache bounds the work.
 */
export const SIZE_STEPS = [MIN_SIZE, 128, 256, DEFAULT_SIZE, 512, 1024, MAX_SIZE];

/** Slugs we issue are 12 characters of randomAlias; anything unlike one is unknown without a query. */
const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

export function clampSize(size: number | undefined): number {
  const wanted = Math.min(Math.max(size ?? DEFAULT_SIZE, MIN_SIZE), MAX_SIZE);
  const distance = (step: number) => Math.abs(Math.log(step / wanted));
  return SIZE_STEPS.reduce((best, step) => (distance(step) < distance(best) ? step : best));
}

/** The destination of a link code's tracking address; null for unknown slugs and codes of other types. */
export async function scanTarget(ctx: AppContext, caches: QrCaches, slug: string): Promise<ScanTarget | null> {
  if (!SLUG.test(slug)) return null;
  const key = cacheKeys.qr(slug);
  const cached = caches.scans.get(key);
  if (cached !== undefined) return cached;
  const epoch = caches.epoch;
  const row = await repo.findScanTarget(ctx.db, slug);
  const target =
    row?.type === 'link' ? { id: row.id, owner: row.user_id, destination: String((JSON.parse(row.data) as { url?: unknown }).url) } : null;
  if (epoch === caches.epoch) caches.scans.set(key, target, caches.ttlMs);
  return target;
}

const color = (stored: string, fallback: string) => parseRgb(stored) ?? parseRgb(fallback)!;

/** The image when it is cached or being rendered (or the slug cannot exist); undefined when asking for it renders it. */
export function readyImage(caches: QrCaches, slug: string, format: ImageFormat, size: number): QrImage | Promise<QrImage | null> | null | undefined {
  if (!SLUG.test(slug)) return null;
  const key = imageKey(slug, format, size);
  return caches.images.get(key) ?? caches.rendering.get(key);
}

/**
 * The image of a code, rendered on demand and kept in a small LRU until the code changes. Concurrent
 * requests for an image not yet cached share one render.
 */
export async function qrImage(ctx: AppContext, caches: QrCaches, slug: string, format: ImageFormat, size: number): Promise<QrImage | null> {
  const ready = readyImage(caches, slug, format, size);
  if (ready !== undefined) return ready;
  const key = imageKey(slug, format, size);
  const render = renderImage(ctx, caches, slug, format, size, key).finally(() => caches.rendering.delete(key));
  caches.rendering.set(key, render);
  return render;
}

async function renderImage(ctx: AppContext, caches: QrCaches, slug: string, format: ImageFormat, size: number, key: string): Promise<QrImage | null> {
  const epoch = caches.epoch;
  const row = await repo.findQrBySlug(ctx.db, slug);
  if (!row) return null;
  const style = {
    payload: payloadFor(ctx, row.type, slug, row.payload),
    foreground: color(row.foreground, DEFAULT_FOREGROUND),
    background: color(row.background, DEFAULT_BACKGROUND),
    logo: logoOf(row.logo),
  };
  const image =
    format === 'svg'
      ? { body: Buffer.from(renderSvg(style, size)), type: 'image/svg+xml; charset=utf-8' }
      : { body: await inTurn(caches, () => drawPng(ctx, style, size)), type: 'image/png' };
  if (epoch === caches.epoch) caches.images.set(key, image, caches.ttlMs);
  return image;
}

/** A stored logo that no longer decodes (checks before logos were decoded whole let some in) leaves the code drawn without it. */
async function drawPng(ctx: AppContext, style: QrStyle, size: number): Promise<Buffer> {
  try {
    return await renderPng(style, size);
  } catch (err) {
    if (style.logo.kind !== 'image') throw err;
    ctx.log.warn({ reason: (err as Error).message }, 'qr logo does not decode; the code is drawn without it');
    return renderPng({ ...style, logo: { kind: 'none' } }, size);
  }
}
