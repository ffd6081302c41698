import type { AppContext } from '../../context.js';
import { fail } from '../../lib/errors.js';
import * as repo from './repo.js';
import { MAX_TAG_LENGTH, MAX_TAGS } from './schema.js';

/** One tag as stored: trimmed and lower-case, so "Sale" and "sale " are one tag. */
export function tagName(value: string, field: string): string {
  const tag = value.trim().toLowerCase();
  if (!tag || tag.length > MAX_TAG_LENGTH) throw fail('invalid_field', `${field} must be 1 to ${MAX_TAG_LENGTH} characters.`);
  if (/[,|\p{Cc}]/u.test(tag)) throw fail('invalid_field', `${field} must not hold a comma, a | or a control character.`);
  return tag;
}

/** A request's tags as stored, repeats dropped in the order sent; more than MAX_TAGS distinct tags are refused. */
export function tagList(values: string[], field = 'tags'): string[] {
  const tags = [...new Set(values.map((value, i) => tagName(value, `${field}[${i}]`)))];
  if (tags.length > MAX_TAGS) throw fail('invalid_field', `${field} may hold at most ${MAX_TAGS} tags.`);
  return tags;
}

export function listTags(ctx: AppContext, userId: number) {
  return repo.listTags(ctx.db, userId);
}

async function ownTag(ctx: AppContext, userId: number, name: string): Promise<string> {
  const tag = name.trim().toLowerCase();
  if (!tag || !(await repo.hasTag(ctx.db, userId, tag))) throw fail('not_found', 'Tag');
  return tag;
}

/** Renaming onto a tag the account has merges the two. */
export async function renameTag(ctx: AppContext, userId: number, name: string, to: string): Promise<string> {
  const from = await ownTag(ctx, userId, name);
  const tag = tagName(to, 'name');
  if (tag !== from) await ctx.db.transaction().execute((trx) => repo.renameTag(trx, userId, from, tag));
  return tag;
}

export async function deleteTag(ctx: AppContext, userId: number, name: string): Promise<void> {
  await repo.deleteTag(ctx.db, userId, await ownTag(ctx, userId, name));
}
