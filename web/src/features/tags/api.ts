import type { Static } from 'typebox';
import { api, getData } from '../../lib/api.js';
import type { TagList } from '../../../../src/features/tags/schema.js';

export type TagEntry = Static<typeof TagList>['data']['tags'][number];

/** Under the links' key: whatever refreshes links (a save, a delete) refreshes the tag counts too. */
export const tagKeys = { all: ['links', 'tags'] as const };

/** Every tag of the account with its link count, by name. */
export const listTags = async () => (await getData<Static<typeof TagList>>('/tags')).tags;
export const renameTag = (name: string, to: string) => api.put(`/tag/${encodeURIComponent(name)}/update`, { name: to });
export const deleteTag = (name: string) => api.delete(`/tag/${encodeURIComponent(name)}/delete`);

/** A tag as the API stores it (trimmed, lower-case, no `,` or `|`); "" when nothing is left. */
export const normaliseTag = (text: string) => text.replace(/[,|]/g, '').trim().toLowerCase().slice(0, 50);

export const MAX_TAGS = 10;
