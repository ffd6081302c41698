import { errorResponses, IdParam, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { listEnvelope, PageQuery } from '../../lib/pagination.js';
import { PixelAddBody, PixelCreated, PixelList, PixelUpdateBody } from './schema.js';
import { addPixel, deletePixel, listPixels, updatePixel } from './service.js';

const tags = ['pixels'];

export const pixelRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/pixels',
    {
      schema: {
        tags,
        summary: 'Tracking pixels of the account, newest first',
        querystring: PageQuery,
        response: { 200: PixelList, ...errorResponses },
      },
    },
    async (req) => listEnvelope('pixels', await listPixels(ctx, accountOf(req).userId, req.query)),
  );

  app.post(
    '/pixel/add',
    {
      schema: {
        tags,
        summary: 'Store a tracking pixel',
        description: 'Provider type names of older clients are stored as the matching neutral type. name and tag are trimmed and must not be empty.',
        body: PixelAddBody,
        response: { 200: PixelCreated, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, id: await addPixel(ctx, accountOf(req).userId, req.body) }),
  );

  app.put(
    '/pixel/:id/update',
    {
      schema: {
        tags,
        summary: 'Change the tag (and optionally the name) of a pixel',
        params: IdParam,
        body: PixelUpdateBody,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await updatePixel(ctx, accountOf(req).userId, req.params.id, req.body);
      return ok('Pixel has been updated successfully.');
    },
  );

  app.delete(
    '/pixel/:id/delete',
    {
      schema: {
        tags,
        summary: 'Delete a pixel; links that carried it stop firing it',
        params: IdParam,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await deletePixel(ctx, accountOf(req).userId, req.params.id);
      return ok('Pixel has been deleted successfully.');
    },
  );
};
