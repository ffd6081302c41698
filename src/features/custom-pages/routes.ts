import type { AppContext } from '../../context.js';
import { errorResponses, IdParam, listResponse, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type App, type Feature } from '../../http/types.js';
import { listEnvelope, PageQuery, toPage } from '../../lib/pagination.js';
import { bioRoutes } from './bio-routes.js';
import {
  Created,
  OverlayAddBody,
  OverlayDetail,
  OverlayEntry,
  OverlayUpdateBody,
  SplashAddBody,
  SplashDetail,
  SplashEntry,
  SplashUpdateBody,
} from './schema.js';
import { addOverlay, addSplash, deletePage, getOverlay, getSplash, listOverlays, listSplash, updateOverlay, updateSplash } from './service.js';

const message = { 200: OkMessage, ...errorResponses };
const created = { 200: Created, ...errorResponses };
const USED_BY_LINKS = 'Links that show it are refreshed at once.';
const DELETE_NOTE = 'Links that showed it go back to direct redirects, so none breaks.';

/** Splash pages and overlays (reads as the spec; writes are extensions in the same style), then bio pages. */
export const customPageRoutes: Feature = async (app, { ctx }) => {
  splashRoutes(app, ctx);
  overlayRoutes(app, ctx);
  bioRoutes(app, ctx);
};

function splashRoutes(app: App, ctx: AppContext): void {
  const splash = { tags: ['splash pages'] };
  app.get(
    '/splash',
    {
      schema: {
        ...splash,
        summary: 'List custom splash pages, newest first',
        querystring: PageQuery,
        response: { 200: listResponse('splash', SplashEntry), ...errorResponses },
      },
    },
    async (req) => listEnvelope('splash', await listSplash(ctx, accountOf(req).userId, toPage(req.query))),
  );
  app.get(
    '/splash/:id',
    {
      schema: {
        ...splash,
        summary: 'One splash page with every field (extension)',
        params: IdParam,
        response: { 200: SplashDetail, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: await getSplash(ctx, accountOf(req).userId, req.params.id) }),
  );
  app.post(
    '/splash/add',
    {
      schema: { ...splash, summary: 'Create a splash page (extension)', body: SplashAddBody, response: created },
    },
    async (req) => ({ error: 0 as const, id: await addSplash(ctx, accountOf(req).userId, req.body) }),
  );
  app.put(
    '/splash/:id/update',
    {
      schema: {
        ...splash,
        summary: 'Update a splash page (extension)',
        description: `Omitted fields are kept. ${USED_BY_LINKS}`,
        params: IdParam,
        body: SplashUpdateBody,
        response: message,
      },
    },
    async (req) => {
      await updateSplash(ctx, accountOf(req).userId, req.params.id, req.body);
      return ok('Splash page has been successfully updated.');
    },
  );
  app.delete(
    '/splash/:id/delete',
    {
      schema: { ...splash, summary: 'Delete a splash page (extension)', description: DELETE_NOTE, params: IdParam, response: message },
    },
    async (req) => {
      await deletePage(ctx, 'splash', accountOf(req).userId, req.params.id);
      return ok('Splash page has been successfully deleted.');
    },
  );
}

function overlayRoutes(app: App, ctx: AppContext): void {
  const overlay = { tags: ['overlays'] };
  app.get(
    '/overlay',
    {
      schema: {
        ...overlay,
        summary: 'List call-to-action overlays, newest first',
        querystring: PageQuery,
        response: { 200: listResponse('cta', OverlayEntry), ...errorResponses },
      },
    },
    async (req) => listEnvelope('cta', await listOverlays(ctx, accountOf(req).userId, toPage(req.query))),
  );
  app.get(
    '/overlay/:id',
    {
      schema: {
        ...overlay,
        summary: 'One overlay with every field (extension)',
        params: IdParam,
        response: { 200: OverlayDetail, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: await getOverlay(ctx, accountOf(req).userId, req.params.id) }),
  );
  app.post(
    '/overlay/add',
    {
      schema: { ...overlay, summary: 'Create an overlay (extension)', body: OverlayAddBody, response: created },
    },
    async (req) => ({ error: 0 as const, id: await addOverlay(ctx, accountOf(req).userId, req.body) }),
  );
  app.put(
    '/overlay/:id/update',
    {
      schema: {
        ...overlay,
        summary: 'Update an overlay (extension)',
        description: `Omitted fields are kept. ${USED_BY_LINKS}`,
        params: IdParam,
        body: OverlayUpdateBody,
        response: message,
      },
    },
    async (req) => {
      await updateOverlay(ctx, accountOf(req).userId, req.params.id, req.body);
      return ok('Overlay has been successfully updated.');
    },
  );
  app.delete(
    '/overlay/:id/delete',
    {
      schema: { ...overlay, summary: 'Delete an overlay (extension)', description: DELETE_NOTE, params: IdParam, response: message },
    },
    async (req) => {
      await deletePage(ctx, 'overlay', accountOf(req).userId, req.params.id);
      return ok('Overlay has been successfully deleted.');
    },
  );
}
