import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { fail } from '../../lib/errors.js';
import { listData, type Page } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { channelItems } from './items.js';
import { itemSources } from './ports.js';
import * as repo from './repo.js';
import type { ChannelFields, ItemType } from './repo.js';
import type { Static } from 'typebox';
import type { ChannelEntry, ChannelUpdateBody } from './schema.js';

const COLOR = /^#[0-9A-Fa-f]{6}$/;
const ITEM_TYPES: readonly string[] = ['links', 'bio', 'qr'];
const ITEM_NAMES: Record<ItemType, string> = { links: 'Link', bio: 'Bio page', qr: 'QR code' };

export type ChannelView = Static<typeof ChannelEntry>;

const toView = (row: ChannelFields & { id: number }): ChannelView => ({ ...row, starred: row.starred === 1 });

async function ownChannel(ctx: AppContext, userId: number, id: number) {
  const row = await repo.findChannel(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Channel');
  return row;
}

export async function listChannels(ctx: AppContext, userId: number, page: Page) {
  const [total, rows] = await Promise.all([repo.countChannels(ctx.db, userId), repo.listChannels(ctx.db, userId, page)]);
  return listData(page, total, rows.map(toView));
}

export async function listItems(ctx: AppContext, userId: number, channelId: number, page: Page) {
  await ownChannel(ctx, userId, channelId);
  return channelItems(ctx, userId, channelId, page);
}

type ChannelInput = Static<typeof ChannelUpdateBody>;

/** Checked changes from the input; absent fields stay absent. */
function changesOf(input: ChannelInput): Partial<ChannelFields> {
  const changes: Partial<ChannelFields> = {};
  if (input.name !== undefined) {
    changes.name = input.name.trim();
    if (!changes.name) throw fail('name_required', 'The channel name');
  }
  if (input.description !== undefined) changes.description = input.description.trim();
  if (input.color !== undefined) {
    changes.color = input.color.trim();
    if (changes.color && !COLOR.test(changes.color)) throw fail('color_invalid');
  }
  if (input.starred !== undefined) changes.starred = input.starred ? 1 : 0;
  return changes;
}

/** Checks the name, runs the write, and turns a lost race on the unique name into the same 409. */
async function saving(ctx: AppContext, userId: number, name: string | undefined, exceptId: number, write: () => Promise<number>) {
  if (name !== undefined && (await repo.nameTaken(ctx.db, userId, name, exceptId))) throw fail('channel_name_taken');
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('channel_name_taken');
    throw error;
  }
}

export async function addChannel(ctx: AppContext, userId: number, input: ChannelInput & { name: string }): Promise<ChannelView> {
  const fields: ChannelFields = { name: '', description: '', color: '', starred: 0, ...changesOf(input) };
  const id = await saving(ctx, userId, fields.name, 0, () => repo.insertChannel(ctx.db, { ...fields, user_id: userId, created_at: nowTimestamp() }));
  return toView(await ownChannel(ctx, userId, id));
}

export async function updateChannel(ctx: AppContext, userId: number, id: number, input: ChannelInput): Promise<ChannelView> {
  await ownChannel(ctx, userId, id);
  const changes = changesOf(input);
  await saving(ctx, userId, changes.name, id, async () => {
    await repo.updateChannel(ctx.db, id, changes);
    return id;
  });
  return toView(await ownChannel(ctx, userId, id));
}

export async function deleteChannel(ctx: AppContext, userId: number, id: number): Promise<void> {
  await ownChannel(ctx, userId, id);
  await repo.deleteChannel(ctx.db, id);
}

/** The channel and the item of that type, both the caller's (400 for an unknown type, 404 otherwise). */
async function ownPair(ctx: AppContext, userId: number, channelId: number, type: string, itemId: number): Promise<ItemType> {
  if (!ITEM_TYPES.includes(type)) throw fail('item_type_invalid');
  await ownChannel(ctx, userId, channelId);
  if (!(await itemSources()[type as ItemType].owns(ctx.db, userId, itemId))) throw fail('not_found', ITEM_NAMES[type as ItemType]);
  return type as ItemType;
}

export async function assignItem(ctx: AppContext, userId: number, channelId: number, type: string, itemId: number): Promise<void> {
  const itemType = await ownPair(ctx, userId, channelId, type, itemId);
  await repo.assignItem(ctx.db, channelId, itemType, itemId, nowTimestamp());
}

export async function unassignItem(ctx: AppContext, userId: number, channelId: number, type: string, itemId: number): Promise<void> {
  const itemType = await ownPair(ctx, userId, channelId, type, itemId);
  await repo.unassignItem(ctx.db, channelId, itemType, itemId);
}
