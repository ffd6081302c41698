import { errorResponses, IdParam, listResponse, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { listEnvelope, PageQuery, toPage } from '../../lib/pagination.js';
import { AssignParams, ChannelAddBody, ChannelEntry, ChannelItem, ChannelSaved, ChannelUpdateBody, ChannelUpdated } from './schema.js';
import { addChannel, assignItem, deleteChannel, listChannels, listItems, unassignItem, updateChannel } from './service.js';

const tags = ['channels'];
const message = { 200: OkMessage, ...errorResponses };

export const channelRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/channels',
    {
      schema: {
        tags,
        summary: 'List channels, starred first, then newest',
        querystring: PageQuery,
        response: { 200: listResponse('channels', ChannelEntry), ...errorResponses },
      },
    },
    async (req) => listEnvelope('channels', await listChannels(ctx, accountOf(req).userId, toPage(req.query))),
  );

  app.get(
    '/channel/:id',
    {
      schema: {
        tags,
        summary: 'List the items of a channel, newest assignment first',
        params: IdParam,
        querystring: PageQuery,
        description: 'Items deleted since they were assigned are left out. `date` is the creation date of the item itself.',
        response: { 200: listResponse('items', ChannelItem), ...errorResponses },
      },
    },
    async (req) => listEnvelope('items', await listItems(ctx, accountOf(req).userId, req.params.id, toPage(req.query))),
  );

  app.post(
    '/channel/add',
    {
      schema: {
        tags,
        summary: 'Create a channel',
        body: ChannelAddBody,
        response: { 200: ChannelSaved, ...errorResponses },
        description: 'Names are unique per account (409). description and color default to "", starred to false.',
      },
    },
    async (req) => ({ error: 0 as const, ...(await addChannel(ctx, accountOf(req).userId, req.body)) }),
  );

  app.post(
    '/channel/:channelid/assign/:type/:itemid',
    {
      schema: {
        tags,
        summary: 'Add a link, bio page or QR code to a channel',
        params: AssignParams,
        response: message,
        description:
          'An item may be in several channels; assigning it twice changes nothing. Channel and item must belong to the caller (404 otherwise).',
      },
    },
    async (req) => {
      await assignItem(ctx, accountOf(req).userId, req.params.channelid, req.params.type, req.params.itemid);
      return ok('Item has been successfully added to the channel.');
    },
  );

  app.delete(
    '/channel/:channelid/assign/:type/:itemid',
    {
      schema: {
        tags,
        summary: 'Remove a link, bio page or QR code from a channel (extension)',
        params: AssignParams,
        response: message,
        description:
          'The item itself is kept. Removing an item that is not in the channel changes nothing. Channel and item must belong to the caller (404 otherwise).',
      },
    },
    async (req) => {
      await unassignItem(ctx, accountOf(req).userId, req.params.channelid, req.params.type, req.params.itemid);
      return ok('Item has been successfully removed from the channel.');
    },
  );

  app.put(
    '/channel/:id/update',
    {
      schema: {
        tags,
        summary: 'Update a channel',
        params: IdParam,
        body: ChannelUpdateBody,
        response: { 200: ChannelUpdated, ...errorResponses },
        description: 'Every field is optional; omitted fields are kept. color "" removes the color. Answers the message plus the updated channel.',
      },
    },
    async (req) => ({
      ...ok('Channel has been successfully updated.'),
      ...(await updateChannel(ctx, accountOf(req).userId, req.params.id, req.body)),
    }),
  );

  app.delete(
    '/channel/:id/delete',
    {
      schema: { tags, summary: 'Delete a channel; its items are unassigned, not deleted', params: IdParam, response: message },
    },
    async (req) => {
      await deleteChannel(ctx, accountOf(req).userId, req.params.id);
      return ok('Channel has been successfully deleted.');
    },
  );
};
