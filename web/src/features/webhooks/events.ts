import type { WebhookEvent } from '../../lib/types.js';

/** The events a webhook can hear, in words, in the order the form offers them; a new event fails the type check until named here. */
const LABELS: Record<WebhookEvent, string> = {
  'link.created': 'Link created',
  'link.updated': 'Link updated',
  'link.deleted': 'Link deleted',
  'link.clicked': 'Link clicked (one delivery per batch of clicks, with counts)',
  'link.health': 'Link health changed',
  'qr.created': 'QR code created',
  'qr.updated': 'QR code updated',
  'qr.deleted': 'QR code deleted',
};

export const EVENTS = (Object.entries(LABELS) as [WebhookEvent, string][]).map(([event, label]) => ({ event, label }));

/** An event in words, short (without the note in brackets); one the dashboard does not know is shown as it is. */
export const eventLabel = (event: string) => (LABELS[event as WebhookEvent] ?? event).replace(/ \(.*\)$/, '');
