import { errorResponses, IdParam, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { listEnvelope, PageQuery } from '../../lib/pagination.js';
import { QrAddBody, QrCreatedResponse, QrDetailResponse, QrListResponse, QrUpdateBody } from './schema.js';
import { SIZE_STEPS } from './serve.js';
import { addQr, deleteQr, getQr, listQrs, updateQr } from './service.js';

const tags = ['qr'];

const IMAGE_NOTE =
  ' `link` is the public image address `{BASE_URL}/qr/{slug}` (random slug): PNG by default, `?format=svg` for SVG, ' +
  `\`?size=\` in pixels (served at the nearest of ${SIZE_STEPS.join(', ')}). ` +
  'Link codes encode `{BASE_URL}/qr/{slug}/scan`, which answers 302 to the destination and counts ' +
  'the scan (bots are redirected but not counted); the other types encode their standard payload.';

export const qrRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/qr',
    {
      schema: {
        tags,
        summary: 'QR codes of the account, newest first',
        querystring: PageQuery,
        response: { 200: QrListResponse, ...errorResponses },
      },
    },
    async (req) => listEnvelope('qrs', await listQrs(ctx, accountOf(req).userId, req.query)),
  );

  app.get(
    '/qr/:id',
    {
      schema: {
        tags,
        summary: 'One QR code with its scan statistics',
        description:
          '`scans` equals `data.clicks`. Label maps hold counts as strings (0 when empty); socialCount always has facebook, twitter and instagram. ' +
          "Extension: `details` also carries the code's `type`, `data` (as an object with the type's fields), `background`, `foreground` and " +
          '`logo`, in the shapes POST /api/qr/add takes, so they can be sent back to PUT /api/qr/{id}/update unchanged.',
        params: IdParam,
        response: { 200: QrDetailResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, ...(await getQr(ctx, accountOf(req).userId, req.params.id)) }),
  );

  app.post(
    '/qr/add',
    {
      schema: {
        tags,
        summary: 'Create a QR code',
        description: `The server never fetches a logo URL: see the logo field.${IMAGE_NOTE}`,
        body: QrAddBody,
        response: { 200: QrCreatedResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, ...(await addQr(ctx, accountOf(req).userId, req.body)) }),
  );

  app.put(
    '/qr/:id/update',
    {
      schema: {
        tags,
        summary: 'Change the content, colors or logo of a QR code',
        description:
          'data is read as the type the code was created with (a type field is ignored). The image address stays the same, ' +
          'so a printed link code keeps working and now leads to the new destination. Omitted colors and logo are kept.',
        params: IdParam,
        body: QrUpdateBody,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await updateQr(ctx, accountOf(req).userId, req.params.id, req.body);
      return ok('QR has been updated successfully.');
    },
  );

  app.delete(
    '/qr/:id/delete',
    {
      schema: {
        tags,
        summary: 'Delete a QR code; its image and tracking address stop answering and it leaves every channel',
        params: IdParam,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await deleteQr(ctx, accountOf(req).userId, req.params.id);
      return ok('QR has been deleted successfully.');
    },
  );
};
