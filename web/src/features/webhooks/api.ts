import { api, getData } from '../../lib/api.js';
import type { Delivery, DeliveryListBody, WebhookCreatedBody, WebhookInput, WebhookListBody, WebhookUpdate } from '../../lib/types.js';

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: ['webhooks', 'list'] as const,
  list: (page: number) => ['webhooks', 'list', page] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
};

/** A page of the account's webhooks; a webhook's secret is shown once, by `addWebhook`, and never listed. */
export const listWebhooks = (page: number, limit: number) => getData<WebhookListBody>('/webhooks', { page, limit });
export const addWebhook = (body: WebhookInput) => api.post<WebhookCreatedBody>('/webhook/add', body);
/** `active: true` re-enables one the server disabled after a day of failures, and clears its reason. */
export const updateWebhook = (id: number, body: WebhookUpdate) => api.put<{ message: string }>(`/webhook/${id}/update`, body);
export const deleteWebhook = (id: number) => api.delete<{ message: string }>(`/webhook/${id}/delete`);
/** A page of a webhook's deliveries, newest first. */
export const listDeliveries = (id: number, page: number, limit: number) => getData<DeliveryListBody>(`/webhook/${id}/deliveries`, { page, limit });
/** Queues a delivery again now; its attempts start over. */
export const resendDelivery = (id: number, delivery: Delivery['id']) => api.post<{ message: string }>(`/webhook/${id}/deliveries/${delivery}/resend`);
