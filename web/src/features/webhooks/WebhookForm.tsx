import { useState, type FormEvent } from 'react';
import { errorText } from '../../lib/api.js';
import type { WebhookInput } from '../../lib/types.js';
import { ErrorNote } from '../../lib/ui.js';
import { checkWebhook, fieldOfError, type WebhookErrors } from './checks.js';
import { EVENTS } from './events.js';

interface Props {
  /** Prefixes the inputs' ids: one form per page for adding, one per webhook being edited. */
  id: string;
  initial: WebhookInput;
  submitLabel: string;
  pending: boolean;
  /** The last refusal of the API: beside its field when it names one, above the buttons otherwise. */
  error: unknown;
  onSubmit(input: WebhookInput): void;
  onCancel?(): void;
}

/** A webhook's address and the events it hears, for adding one and for editing one. */
export function WebhookForm({ id, initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [url, setUrl] = useState(initial.url);
  const [events, setEvents] = useState<string[]>(initial.events);
  const [checked, setChecked] = useState<WebhookErrors>({});
  const field = fieldOfError(error);
  const errors: WebhookErrors = { ...(field ? { [field]: errorText(error) } : {}), ...checked };
  const toggle = (event: string, on: boolean) => {
    setEvents((list) => (on ? EVENTS.map((e) => e.event).filter((e) => e === event || list.includes(e)) : list.filter((e) => e !== event)));
    setChecked(({ events: _, ...rest }) => rest);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = { url: url.trim(), events };
    const found = checkWebhook(input);
    setChecked(found);
    if (found.url) document.getElementById(`${id}-url`)?.focus();
    else if (found.events) document.getElementById(`${id}-event-0`)?.focus();
    else onSubmit(input);
  };
  const describedBy = (name: keyof WebhookInput, hint?: string) =>
    [hint, errors[name] && `${id}-${name}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <form className="webhook-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-url`}>Address (URL)</label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/hooks/redirectory"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setChecked(({ url: _, ...rest }) => rest);
          }}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={describedBy('url', `${id}-url-hint`)}
        />
        {errors.url && (
          <small id={`${id}-url-error`} className="field-error">
            {errors.url}
          </small>
        )}
        <small id={`${id}-url-hint`} className="muted">
          Redirectory POSTs each event there as JSON. It must be http(s) on a public address.
        </small>
      </div>
      <fieldset className="webhook-events" aria-describedby={describedBy('events')}>
        <legend>Events</legend>
        {errors.events && (
          <small id={`${id}-events-error`} className="field-error">
            {errors.events}
          </small>
        )}
        <div className="event-grid">
          {EVENTS.map(({ event, label }, i) => (
            <label className="check" key={event}>
              <input
                id={`${id}-event-${i}`}
                type="checkbox"
                value={event}
                checked={events.includes(event)}
                onChange={(e) => toggle(event, e.target.checked)}
              />
              <span>
                {label} <code className="muted">{event}</code>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorNote error={field ? null : error} />
      <div className="actions">
        <button type="submit" disabled={pending}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
