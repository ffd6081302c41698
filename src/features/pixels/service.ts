import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import type { PixelRow } from '../../db/types.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { pixelLinks } from './ports.js';
import * as repo from './repo.js';
import { neutralPixelType, PIXEL_TAG, PIXEL_TYPES } from './types.js';
import type { Static } from 'typebox';
import type { PixelSchema } from './schema.js';

export type PixelView = Static<typeof PixelSchema>;

function toView(row: PixelRow): PixelView {
  return { id: row.id, type: row.type, name: row.name, tag: row.tag, date: row.created_at };
}

function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw fail('invalid_field', `${field} must not be empty.`);
  return trimmed;
}

function checkTag(value: string): string {
  const tag = required(value, 'tag');
  if (!PIXEL_TAG.test(tag)) throw fail('pixel_tag_invalid');
  return tag;
}

export async function listPixels(ctx: AppContext, userId: number, query: { limit?: number; page?: number }): Promise<ListData<PixelView>> {
  const page = toPage(query);
  const [total, rows] = await Promise.all([repo.countPixels(ctx.db, userId), repo.listPixels(ctx.db, userId, page)]);
  return listData(page, total, rows.map(toView));
}

export async function addPixel(ctx: AppContext, userId: number, input: { type: string; name: string; tag: string }): Promise<number> {
  const type = neutralPixelType(input.type);
  if (!type) throw fail('pixel_type_invalid', input.type, PIXEL_TYPES.join(', '));
  return repo.insertPixel(ctx.db, {
    user_id: userId,
    type,
    name: required(input.name, 'name'),
    tag: checkTag(input.tag),
    created_at: nowTimestamp(),
  });
}

async function ownPixel(ctx: AppContext, userId: number, id: number): Promise<PixelRow> {
  const row = await repo.findPixel(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Pixel');
  return row;
}

/** Links carrying the pixel serve its tag, so their cached copies are dropped. */
export async function updatePixel(ctx: AppContext, userId: number, id: number, input: { name?: string; tag: string }): Promise<void> {
  await ownPixel(ctx, userId, id);
  const changes: { name?: string; tag: string } = { tag: checkTag(input.tag) };
  if (input.name !== undefined) changes.name = required(input.name, 'name');
  await repo.updatePixel(ctx.db, id, changes);
  await pixelLinks().changed(ctx, await repo.linkIdsOfPixel(ctx.db, id));
}

export async function deletePixel(ctx: AppContext, userId: number, id: number): Promise<void> {
  await ownPixel(ctx, userId, id);
  const linkIds = await repo.linkIdsOfPixel(ctx.db, id);
  await repo.deletePixel(ctx.db, id);
  await pixelLinks().changed(ctx, linkIds);
}

/** Which of the ids are the account's pixels (for links that name them). */
export function ownPixelIds(ctx: AppContext, userId: number, ids: number[]): Promise<number[]> {
  return repo.ownPixelIds(ctx.db, userId, ids);
}

/** Replaces a link's pixels; takes the link writer's transaction so both land together. */
export function setLinkPixels(db: Db, linkId: number, pixelIds: number[]): Promise<void> {
  return repo.setLinkPixels(db, linkId, pixelIds);
}

/** Each link's pixel ids (links without pixels are absent), for exports. */
export function linkPixelIds(db: Db, linkIds: number[]): Promise<Map<number, number[]>> {
  return repo.pixelIdsByLink(db, linkIds);
}

/** A link's pixel ids as its detail shows them (only the account's own). */
export function pixelIdsOfLink(db: Db, userId: number, linkId: number): Promise<number[]> {
  return repo.ownPixelIdsOfLink(db, userId, linkId);
}

/** Pixel assignments of links just created in bulk; takes the bulk writer's transaction. */
export function addLinkPixels(db: Db, rows: Array<{ link_id: number; pixel_id: number }>): Promise<void> {
  return repo.insertLinkPixels(db, rows);
}

/** A deleted link's assignments; takes the link owner's transaction. */
export function dropLinkPixels(db: Db, linkId: number): Promise<void> {
  return repo.deleteLinkPixels(db, linkId);
}

export { linkHasPixels, pixelTagsQuery } from './repo.js';
