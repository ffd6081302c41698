import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import type { Webhook, WebhookUpdate } from '../../lib/types.js';
import { ErrorNote, formatDate } from '../../lib/ui.js';
import { deleteWebhook, updateWebhook, webhookKeys } from './api.js';
import { Deliveries } from './Deliveries.js';
import { eventLabel } from './events.js';
import { WebhookForm } from './WebhookForm.js';

/** One webhook: where it sends, what it hears, whether it is on (and why not), its actions and its latest deliveries. */
export function WebhookItem({ webhook, onDeleted }: { webhook: Webhook; onDeleted(): void }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.all });
  const update = useMutation({ mutationFn: (body: WebhookUpdate) => updateWebhook(webhook.id, body), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(webhook.id),
    onSuccess: async () => {
      // Its deliveries are gone with it: asking for them again would only get a 404.
      client.removeQueries({ queryKey: webhookKeys.deliveries(webhook.id) });
      await client.invalidateQueries({ queryKey: webhookKeys.lists });
      onDeleted();
    },
  });
  const closeEditor = () => {
    setEditing(false);
    update.reset();
    // Back where the person was: the button that opened the form.
    setTimeout(() => editButton.current?.focus());
  };
  const heading = `webhook-${webhook.id}-h`;
  return (
    <article className="panel webhook" aria-labelledby={heading} data-webhook={webhook.id}>
      <div className="webhook-head">
        <h2 id={heading} className="url-text">
          {webhook.url}
        </h2>
        <WebhookState webhook={webhook} />
      </div>
      {editing ? (
        <WebhookForm
          id={`webhook-${webhook.id}`}
          initial={{ url: webhook.url, events: webhook.events }}
          submitLabel="Save changes"
          pending={update.isPending}
          error={update.error}
          onSubmit={(input) => update.mutate(input, { onSuccess: closeEditor })}
          onCancel={closeEditor}
        />
      ) : (
        <>
          <ul className="chips" aria-label="Events">
            {webhook.events.map((event) => (
              <li key={event}>{eventLabel(event)}</li>
            ))}
          </ul>
          <p className="muted small">Added {formatDate(webhook.date)}</p>
          <ErrorNote error={update.error ?? remove.error} />
          <div className="actions">
            <button type="button" className="small secondary" ref={editButton} aria-label={`Edit ${webhook.url}`} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              className="small secondary"
              disabled={update.isPending}
              aria-label={`${webhook.active ? 'Disable' : 'Enable'} ${webhook.url}`}
              onClick={() => update.mutate({ active: !webhook.active })}
            >
              {webhook.active ? 'Disable' : 'Enable'}
            </button>
            <ConfirmButton
              label="Delete"
              what={webhook.url}
              confirm="Delete this webhook"
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </div>
        </>
      )}
      <Deliveries webhook={webhook} />
    </article>
  );
}

/** Active, or disabled with the reason the server gives (by its owner, or after a day of failures). */
function WebhookState({ webhook }: { webhook: Webhook }) {
  if (webhook.active) return <span className="badge webhook-active">Active</span>;
  return (
    <p className="webhook-disabled">
      <span className="badge danger">Disabled</span>{' '}
      <span className="small">{webhook.reason ? `${webhook.reason.replace(/\.?$/, '.')} ` : ''}Nothing is sent until it is enabled again.</span>
    </p>
  );
}
