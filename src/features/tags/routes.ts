import { errorResponses, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { TagList, TagParam, TagRenameBody } from './schema.js';
import { deleteTag, listTags, renameTag } from './service.js';

/** Tags label links: the links scope guards them. */
const tags = ['links'];

export const tagRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/tags',
    {
      schema: {
        tags,
        summary: 'Tags of your links, with how many links carry each (extension)',
        response: { 200: TagList, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: { tags: await listTags(ctx, accountOf(req).userId) } }),
  );

  app.put(
    '/tag/:name/update',
    {
      schema: {
        tags,
        summary: 'Rename a tag on all your links (extension)',
        description: 'Renaming onto a tag you already have merges the two. 404 for a tag none of your links carries.',
        params: TagParam,
        body: TagRenameBody,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await renameTag(ctx, accountOf(req).userId, req.params.name, req.body.name);
      return ok('Tag has been renamed successfully.');
    },
  );

  app.delete(
    '/tag/:name/delete',
    {
      schema: {
        tags,
        summary: 'Remove a tag from all your links (extension)',
        description: 'The links stay. 404 for a tag none of your links carries.',
        params: TagParam,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await deleteTag(ctx, accountOf(req).userId, req.params.name);
      return ok('Tag has been deleted successfully.');
    },
  );
};
