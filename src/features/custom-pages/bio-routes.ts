import type { AppContext } from '../../context.js';
import { errorResponses, IdParam, listResponse, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type App } from '../../http/types.js';
import { listEnvelope, PageQuery, toPage } from '../../lib/pagination.js';
import { addBio, deleteBio, getBio, listBios, updateBio } from './bio-service.js';
import { BioAddBody, BioCreated, BioDetail, BioEntry, BioUpdateBody } from './schema.js';

const tags = ['bio pages'];
const message = { 200: OkMessage, ...errorResponses };
const ALIAS_NOTE = 'The alias is refused (400) when reserved and taken (409) when a bio page or a default-domain link already uses it.';

/** Bio pages (extension): a page of links at `{BASE_URL}/{alias}`. */
export function bioRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/bio',
    {
      schema: {
        tags,
        summary: 'List bio pages, newest first',
        querystring: PageQuery,
        response: { 200: listResponse('bio', BioEntry), ...errorResponses },
      },
    },
    async (req) => listEnvelope('bio', await listBios(ctx, accountOf(req).userId, toPage(req.query))),
  );

  app.get(
    '/bio/:id',
    {
      schema: { tags, summary: 'One bio page with every field and its links', params: IdParam, response: { 200: BioDetail, ...errorResponses } },
    },
    async (req) => ({ error: 0 as const, data: await getBio(ctx, accountOf(req).userId, req.params.id) }),
  );

  app.post(
    '/bio/add',
    {
      schema: { tags, summary: 'Create a bio page', description: ALIAS_NOTE, body: BioAddBody, response: { 200: BioCreated, ...errorResponses } },
    },
    async (req) => ({ error: 0 as const, ...(await addBio(ctx, accountOf(req).userId, req.body)) }),
  );

  app.put(
    '/bio/:id/update',
    {
      schema: {
        tags,
        summary: 'Update a bio page',
        params: IdParam,
        body: BioUpdateBody,
        response: message,
        description: `Omitted fields are kept; links replaces the whole list. ${ALIAS_NOTE}`,
      },
    },
    async (req) => {
      await updateBio(ctx, accountOf(req).userId, req.params.id, req.body);
      return ok('Bio page has been successfully updated.');
    },
  );

  app.delete(
    '/bio/:id/delete',
    {
      schema: { tags, summary: 'Delete a bio page; it also leaves every channel', params: IdParam, response: message },
    },
    async (req) => {
      await deleteBio(ctx, accountOf(req).userId, req.params.id);
      return ok('Bio page has been successfully deleted.');
    },
  );
}
