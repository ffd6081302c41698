import { Type, type Static } from 'typebox';
import { Id, listResponse } from '../../http/envelopes.js';

/** Webhooks (docs/decisions/0011-webhooks.md): the API's shapes. */

export const WEBHOOK_EVENTS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'qr.created',
  'qr.updated',
  'qr.deleted',
  'link.clicked',
  'link.health',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const Timestamp = (description: string) => Type.String({ description: `${description}, \`YYYY-MM-DD HH:MM:SS\` (UTC)` });
const Events = Type.Array(Type.String(), {
  maxItems: WEBHOOK_EVENTS.length,
  description: `Events it hears, one or more of ${WEBHOOK_EVENTS.join(', ')}`,
});
const Url = Type.String({ maxLength: 2000, description: 'Where deliveries are POSTed: an http(s) URL of a public address' });

export const WebhookView = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean({ description: 'false once disabled (by its owner, or after failing for a day)' }),
  reason: Type.String({ description: 'Why it is disabled; empty while active' }),
  date: Timestamp('When it was added'),
  keyid: Type.Union([Type.Integer(), Type.Null()], { description: 'The API key that added it; null when the dashboard did' }),
  via: Type.String({ description: "Who added it, as the activity log says: the key's name then, or `session`" }),
});
export type WebhookView = Static<typeof WebhookView>;

export const WebhookList = listResponse('webhooks', WebhookView);

export const WebhookAddBody = Type.Object({ url: Url, events: Events });
export type WebhookAddBody = Static<typeof WebhookAddBody>;

export const WebhookUpdateBody = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  active: Type.Optional(Type.Boolean({ description: 'true re-enables a disabled webhook and clears its reason; false disables it' })),
});
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

export const WebhookCreated = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  secret: Type.String({ description: 'The signing secret, `whsec_…`: shown only in this answer' }),
  keyid: Type.Union([Type.Integer(), Type.Null()]),
  via: Type.String(),
});

export const DeliveryView = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  eventId: Type.String({ description: "The body's `id`, the same for every webhook and every attempt: receivers drop duplicates by it" }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()], { description: "The last attempt's HTTP status; null without one" }),
  date: Timestamp('When the event happened'),
  next: Type.Union([Type.String(), Type.Null()], { description: 'When the next attempt is due (UTC); null once delivered or failed' }),
});
export type DeliveryView = Static<typeof DeliveryView>;

export const DeliveryList = listResponse('deliveries', DeliveryView);

export const DeliveryParams = Type.Object({ id: Id('The webhook'), delivery: Id('The delivery') });
