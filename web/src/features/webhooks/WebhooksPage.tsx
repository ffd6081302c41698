import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type MouseEvent } from 'react';
import { EmptyState } from '../../lib/EmptyState.js';
import type { WebhookInput } from '../../lib/types.js';
import { ErrorNote, Loading, PageTitle, Pagination } from '../../lib/ui.js';
import { addWebhook, listWebhooks, webhookKeys } from './api.js';
import { NewSecret } from './NewSecret.js';
import { WebhookForm } from './WebhookForm.js';
import { WebhookItem } from './WebhookItem.js';
import './Webhooks.css';

const PAGE_SIZE = 20;

/** The header's "Add a webhook": to the form's first field, below the list. */
function focusForm(event: MouseEvent) {
  event.preventDefault();
  document.getElementById('webhook-url')?.focus();
}
const EMPTY: WebhookInput = { url: '', events: [] };

/** Settings → Webhooks: the account's webhooks with their deliveries, and the form that adds one and shows its secret once. */
export default function WebhooksPage() {
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const list = useQuery({ queryKey: webhookKeys.list(page), queryFn: () => listWebhooks(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const listHeading = useRef<HTMLHeadingElement>(null);
  const webhooks = list.data?.webhooks;
  // The deleted card held the focus: the list takes it, or the page's heading once the list is gone.
  const afterDelete = () => setTimeout(() => (listHeading.current ?? document.querySelector<HTMLElement>('main h1'))?.focus());
  return (
    <>
      <PageTitle title="Webhooks">
        {webhooks && webhooks.length > 0 && (
          <a href="#webhook-url" className="button" onClick={focusForm}>
            Add a webhook
          </a>
        )}
      </PageTitle>
      <p className="note">
        A webhook tells another service when something changes in this account: Redirectory sends each event to its address as a signed JSON{' '}
        <code>POST</code>, tries again for a day when it fails, and disables a webhook that keeps failing.
      </p>
      {created && <NewSecret url={created.url} secret={created.secret} onDone={() => setCreated(null)} />}
      <ErrorNote error={list.error} />
      {list.isPending && <Loading />}
      {webhooks?.length === 0 && (
        <EmptyState title="No webhooks yet" action={{ label: 'Add a webhook', focus: 'webhook-url' }}>
          Add the address of a service that should hear about new, changed or deleted links and QR codes, clicks and link health, and choose which of
          those events it gets.
        </EmptyState>
      )}
      {webhooks && webhooks.length > 0 && (
        <section aria-labelledby="webhooks-h">
          <h2 id="webhooks-h" className="visually-hidden" ref={listHeading} tabIndex={-1}>
            Your webhooks
          </h2>
          {webhooks.map((webhook) => (
            <WebhookItem key={webhook.id} webhook={webhook} onDeleted={afterDelete} />
          ))}
          <Pagination page={page} maxpage={list.data?.maxpage ?? 1} onPage={setPage} />
        </section>
      )}
      <AddWebhook onCreated={setCreated} />
    </>
  );
}

function AddWebhook({ onCreated }: { onCreated(created: { url: string; secret: string }): void }) {
  const client = useQueryClient();
  // A new key remounts the form, empty, after each webhook added.
  const [round, setRound] = useState(0);
  const add = useMutation({
    mutationFn: addWebhook,
    onSuccess: async (answer) => {
      onCreated({ url: answer.url, secret: answer.secret });
      setRound((n) => n + 1);
      await client.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });
  return (
    <section className="panel" aria-labelledby="add-webhook-h">
      <h2 id="add-webhook-h">Add a webhook</h2>
      <WebhookForm
        key={round}
        id="webhook"
        initial={EMPTY}
        submitLabel="Add webhook"
        pending={add.isPending}
        error={add.isSuccess ? null : add.error}
        onSubmit={(input) => add.mutate(input)}
      />
    </section>
  );
}
