import { actorOf } from '../../http/actor.js';
import { errorResponses, IdParam, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature, type GateConfig } from '../../http/types.js';
import { listEnvelope, PageQuery } from '../../lib/pagination.js';
import { scheduleDeliveryPrune } from './prune.js';
import { DeliveryList, DeliveryParams, WebhookAddBody, WebhookCreated, WebhookList, WebhookUpdateBody } from './schema.js';
import { addWebhook, deleteWebhook, listDeliveries, listWebhooks, resendDelivery, updateWebhook } from './service.js';

const tags = ['webhooks'];
/** Webhooks belong to the account's settings: its scopes guard them. */
const read = { scope: 'account:read' } satisfies GateConfig;
const write = { scope: 'account:write' } satisfies GateConfig;

export const webhookRoutes: Feature = async (app, { ctx }) => {
  // Finished deliveries are pruned hourly while the app runs, and the prune stops with it.
  const stopPrune = scheduleDeliveryPrune(ctx, ctx.log);
  app.addHook('onClose', () => stopPrune());
  app.get(
    '/webhooks',
    {
      config: read,
      schema: { tags, summary: 'Webhooks of the account, newest first', querystring: PageQuery, response: { 200: WebhookList, ...errorResponses } },
    },
    async (req) => listEnvelope('webhooks', await listWebhooks(ctx, accountOf(req).userId, req.query)),
  );

  app.post(
    '/webhook/add',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a webhook; its signing secret is shown only in this answer',
        description:
          'Each event it hears is POSTed to `url` as `{"id":"evt_…","event","created","data"}`, signed in `Redirectory-Signature` ' +
          '(see the README), and retried with exponential backoff for a day until a 2xx answer.',
        body: WebhookAddBody,
        response: { 200: WebhookCreated, ...errorResponses },
      },
    },
    async (req) => addWebhook(ctx, accountOf(req).userId, req.body, { actor: actorOf(req), keyId: accountOf(req).key?.id ?? null }),
  );

  app.put(
    '/webhook/:id/update',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change the URL, events or state of a webhook',
        params: IdParam,
        body: WebhookUpdateBody,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await updateWebhook(ctx, accountOf(req).userId, req.params.id, req.body, actorOf(req));
      return ok('Webhook updated');
    },
  );

  app.delete(
    '/webhook/:id/delete',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a webhook with its deliveries, pending ones included',
        params: IdParam,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await deleteWebhook(ctx, accountOf(req).userId, req.params.id, actorOf(req));
      return ok('Webhook deleted');
    },
  );

  app.get(
    '/webhook/:id/deliveries',
    {
      config: read,
      schema: {
        tags,
        summary: "A webhook's deliveries, newest first",
        params: IdParam,
        querystring: PageQuery,
        response: { 200: DeliveryList, ...errorResponses },
      },
    },
    async (req) => listEnvelope('deliveries', await listDeliveries(ctx, accountOf(req).userId, req.params.id, req.query)),
  );

  app.post(
    '/webhook/:id/deliveries/:delivery/resend',
    {
      config: write,
      schema: {
        tags,
        summary: 'Queue a delivery again now; its attempts restart',
        params: DeliveryParams,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await resendDelivery(ctx, accountOf(req).userId, req.params.id, req.params.delivery);
      return ok('Delivery queued');
    },
  );
};
