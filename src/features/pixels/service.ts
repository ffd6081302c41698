import type { AppContext } from '../../context.js';
import type { PixelRow } from '../../db/types.js';
import { invalid, notFound } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { invalidateLinks } from '../links/cache.js';
import * as repo from './repo.js';
import { neutralPixelType, PIXEL_TYPES } from './types.js';

export const PixelError = {
  badType: (value: string) => invalid(`Unknown pixel type "${value}". Use one of: ${PIXEL_TYPES.join(', ')}.`),
  empty: (field: string) => invalid(`${field} must not be empty.`),
  notFound: () => notFound('Pixel'),
};

export interface PixelView {
  id: number;
  type: string;
  name: string;
  tag: string;
  date: string;
}

function toView(row: PixelRow): PixelView {
  return { id: row.id, type: row.type, name: row.name, tag: row.tag, date: row.created_at };
}

function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw PixelError.empty(field);
  return trimmed;
}

export async function listPixels(ctx: AppContext, userId: number, query: { limit?: number; page?: number }): Promise<ListData<PixelView>> {
  const page = toPage(query);
  const [total, rows] = await Promise.all([repo.countPixels(ctx.db, userId), repo.listPixels(ctx.db, userId, page)]);
  return listData(page, total, rows.map(toView));
}

export async function addPixel(ctx: AppContext, userId: number, input: { type: string; name: string; tag: string }): Promise<number> {
  const type = neutralPixelType(input.type);
  if (!type) throw PixelError.badType(input.type);
  return repo.insertPixel(ctx.db, {
    user_id: userId,
    type,
    name: required(input.name, 'name'),
    tag: required(input.tag, 'tag'),
    created_at: nowTimestamp(),
  });
}

async function ownPixel(ctx: AppContext, userId: number, id: number): Promise<PixelRow> {
  const row = await repo.findPixel(ctx.db, userId, id);
  if (!row) throw PixelError.notFound();
  return row;
}

/** Links carrying the pixel serve its tag, so their cached copies are dropped. */
export async function updatePixel(ctx: AppContext, userId: number, id: number, input: { name?: string; tag: string }): Promise<void> {
  await ownPixel(ctx, userId, id);
  const changes: { name?: string; tag: string } = { tag: required(input.tag, 'tag') };
  if (input.name !== undefined) changes.name = required(input.name, 'name');
  await repo.updatePixel(ctx.db, id, changes);
  await invalidateLinks(ctx, await repo.linkIdsOfPixel(ctx.db, id));
}

export async function deletePixel(ctx: AppContext, userId: number, id: number): Promise<void> {
  await ownPixel(ctx, userId, id);
  const linkIds = await repo.linkIdsOfPixel(ctx.db, id);
  await repo.deletePixel(ctx.db, id);
  await invalidateLinks(ctx, linkIds);
}
