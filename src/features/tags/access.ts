import type { Db } from '../../db/connect.js';
import * as repo from './repo.js';

/**
 * What links asks of tags: the links' write pipeline writes a link's tags in its own transaction, and its
 * list and detail read them. Tags are never part of what a short link serves, so no cached address changes.
 */

export { forgetLinkTags, taggedLinkIds, tagsOfLinks } from './repo.js';
export { tagList } from './service.js';
export { MAX_TAGS, TagsField, TAG_RULES } from './schema.js';

/** Tags of links just inserted, in the links' transaction. */
export function addLinkTags(db: Db, links: Array<{ linkId: number; userId: number; tags: string[] }>): Promise<void> {
  return repo.insertTags(
    db,
    links.flatMap(({ linkId, userId, tags }) => tags.map((tag) => ({ link_id: linkId, user_id: userId, tag }))),
  );
}

/** The link's tags become these, in the links' transaction. */
export async function setLinkTags(db: Db, userId: number, linkId: number, tags: string[]): Promise<void> {
  await repo.forgetLinkTags(db, linkId);
  await addLinkTags(db, [{ linkId, userId, tags }]);
}
