import { errorResponses, IdParam, listResponse, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { listEnvelope, PageQuery, toPage } from '../../lib/pagination.js';
import { AssignParams, CampaignAddBody, CampaignEntry, CampaignSaved, CampaignUpdateBody } from './schema.js';
import { addCampaign, assignLink, deleteCampaign, listCampaigns, updateCampaign, type CampaignView } from './service.js';

const tags = ['campaigns'];
const message = { 200: OkMessage, ...errorResponses };
const saved = { 200: CampaignSaved, ...errorResponses };

/** The saved campaign with its name under both `domain` (spec) and `campaign` (clients). */
const savedBody = (view: CampaignView) => ({ error: 0 as const, domain: view.name, campaign: view.name, ...view });

export const campaignRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/campaigns',
    {
      schema: {
        tags,
        summary: 'List campaigns, newest first',
        querystring: PageQuery,
        response: { 200: listResponse('campaigns', CampaignEntry), ...errorResponses },
      },
    },
    async (req) => listEnvelope('campaigns', await listCampaigns(ctx, accountOf(req).userId, toPage(req.query))),
  );

  app.post(
    '/campaign/add',
    {
      schema: {
        tags,
        summary: 'Create a campaign',
        body: CampaignAddBody,
        response: saved,
        description:
          'A missing or empty name becomes "Campaign N". Names are unique per account (409); slugs are unique across the service (409). ' +
          'Without a slug, `rotator` is false and the list URL uses the name made URL-safe (or `campaign`) before the dash.',
      },
    },
    async (req) => savedBody(await addCampaign(ctx, accountOf(req).userId, req.body)),
  );

  app.post(
    '/campaign/:campaignid/assign/:linkid',
    {
      schema: {
        tags,
        summary: 'Add a short link to a campaign',
        params: AssignParams,
        response: message,
        description: 'A link belongs to at most one campaign: assigning moves it. Both ids must belong to the caller (404 otherwise).',
      },
    },
    async (req) => {
      await assignLink(ctx, accountOf(req).userId, req.params.campaignid, req.params.linkid);
      return ok('Link has been successfully added to the campaign.');
    },
  );

  app.put(
    '/campaign/:id/update',
    {
      schema: {
        tags,
        summary: 'Update a campaign',
        params: IdParam,
        body: CampaignUpdateBody,
        response: saved,
        description: 'name is required. slug omitted keeps it, "" or null removes it (the rotator becomes false). public omitted keeps it.',
      },
    },
    async (req) => savedBody(await updateCampaign(ctx, accountOf(req).userId, req.params.id, req.body)),
  );

  app.delete(
    '/campaign/:id/delete',
    {
      schema: { tags, summary: 'Delete a campaign; its links are kept and leave the campaign', params: IdParam, response: message },
    },
    async (req) => {
      await deleteCampaign(ctx, accountOf(req).userId, req.params.id);
      return ok('Campaign has been successfully deleted.');
    },
  );
};
