import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';

/** Rows per INSERT, far below SQLite's and PostgreSQL's parameter limits. */
const ROWS_PER_INSERT = 300;

export interface TagRow {
  link_id: number;
  user_id: number;
  tag: string;
}

export async function insertTags(db: Db, rows: TagRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    await db
      .insertInto('link_tags')
      .values(rows.slice(at, at + ROWS_PER_INSERT))
      .execute();
  }
}

export async function forgetLinkTags(db: Db, linkId: number): Promise<void> {
  await db.deleteFrom('link_tags').where('link_id', '=', linkId).execute();
}

/** Each link's tags, by name; links without tags are absent. */
export async function tagsOfLinks(db: Db, linkIds: number[]): Promise<Map<number, string[]>> {
  const tags = new Map<number, string[]>();
  if (linkIds.length === 0) return tags;
  const rows = await db.selectFrom('link_tags').select(['link_id', 'tag']).where('link_id', 'in', linkIds).orderBy('tag').execute();
  for (const row of rows) tags.set(row.link_id, [...(tags.get(row.link_id) ?? []), row.tag]);
  return tags;
}

/** The account's links carrying the tag, as a subquery for the links' list. */
export function taggedLinkIds(userId: number, tag: string): RawBuilder<number> {
  return sql<number>`(select link_id from link_tags where user_id = ${userId} and tag = ${tag})`;
}

export async function listTags(db: Db, userId: number): Promise<Array<{ name: string; count: number }>> {
  const rows = await db
    .selectFrom('link_tags')
    .select((eb) => ['tag', eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .groupBy('tag')
    .orderBy('tag')
    .execute();
  return rows.map((row) => ({ name: row.tag, count: Number(row.n) }));
}

export async function hasTag(db: Db, userId: number, tag: string): Promise<boolean> {
  const row = await db.selectFrom('link_tags').select('link_id').where('user_id', '=', userId).where('tag', '=', tag).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Links carrying both names keep one row: the old one goes before the rest are renamed. */
export async function renameTag(db: Db, userId: number, from: string, to: string): Promise<void> {
  await db.deleteFrom('link_tags').where('user_id', '=', userId).where('tag', '=', from).where('link_id', 'in', taggedLinkIds(userId, to)).execute();
  await db.updateTable('link_tags').set({ tag: to }).where('user_id', '=', userId).where('tag', '=', from).execute();
}

export async function deleteTag(db: Db, userId: number, tag: string): Promise<void> {
  await db.deleteFrom('link_tags').where('user_id', '=', userId).where('tag', '=', tag).execute();
}
