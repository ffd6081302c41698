import { ApiError } from '../../lib/api.js';
import type { WebhookInput } from '../../lib/types.js';

/** Messages by the form's field: `url` or `events`. */
export type WebhookErrors = Partial<Record<keyof WebhookInput, string>>;

/** What the browser can tell before asking: that something is filled in. Whether it is a public http(s) address, the server says. */
export function checkWebhook(input: WebhookInput): WebhookErrors {
  const errors: WebhookErrors = {};
  if (!input.url.trim()) errors.url = 'Enter the address Redirectory should send events to, such as https://example.com/hooks.';
  if (input.events.length === 0) errors.events = 'Choose at least one event.';
  return errors;
}

const BY_CODE: Record<string, keyof WebhookInput> = { webhook_url_invalid: 'url', webhook_events_invalid: 'events' };

/** The field a refusal of the API is about: by its code, or the field its message starts with ("url must…"); null for the form as a whole. */
export function fieldOfError(error: unknown): keyof WebhookInput | null {
  if (!(error instanceof ApiError)) return null;
  if (BY_CODE[error.code]) return BY_CODE[error.code]!;
  if (error.code !== 'invalid_field') return null;
  const named = /^(url|events)\b/.exec(error.message);
  return named ? (named[1] as keyof WebhookInput) : null;
}
