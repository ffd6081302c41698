import { Type } from 'typebox';

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 50;

export const TAG_RULES =
  `Up to ${MAX_TAGS} tags, each trimmed, 1 to ${MAX_TAG_LENGTH} characters, without \`,\` or \`|\` (the CSV separators), ` +
  'stored lower-case; repeats (in any case) count once.';

/** The `tags` field of add, update and the detail (extension). */
export const TagsField = Type.Array(Type.String(), {
  maxItems: MAX_TAGS,
  description: `Extension: the link's tags. ${TAG_RULES} On update the list replaces the current one; left out, the tags stay.`,
});

export const TagEntry = Type.Object({
  name: Type.String({ description: 'The tag, lower-case' }),
  count: Type.Integer({ description: 'How many of your links carry it' }),
});

export const TagList = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ tags: Type.Array(TagEntry, { description: 'Every tag of your links, by name' }) }),
});

export const TagParam = Type.Object({ name: Type.String({ description: 'The tag (any case)' }) });

export const TagRenameBody = Type.Object({
  name: Type.String({ description: `The new name, under the same rules as a link's tags; an existing tag's name merges the two` }),
});
