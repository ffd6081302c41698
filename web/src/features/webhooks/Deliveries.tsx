import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Delivery, Webhook } from '../../lib/types.js';
import { ErrorNote, formatRelative, Loading, Pagination, When } from '../../lib/ui.js';
import { listDeliveries, resendDelivery, webhookKeys } from './api.js';
import { eventLabel } from './events.js';

const PAGE_SIZE = 10;
/** While a delivery waits for an attempt the list looks again this often, to show how it went. */
const PENDING_POLL_MS = 5000;

const STATUS: Record<Delivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

/** A webhook's latest deliveries, newest first, each with a button that sends it again. */
export function Deliveries({ webhook }: { webhook: Webhook }) {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [resent, setResent] = useState<Delivery | null>(null);
  const list = useQuery({
    queryKey: [...webhookKeys.deliveries(webhook.id), page],
    queryFn: () => listDeliveries(webhook.id, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_POLL_MS : false),
  });
  const resend = useMutation({
    mutationFn: (delivery: Delivery) => resendDelivery(webhook.id, delivery.id),
    onSuccess: async (_, delivery) => {
      setResent(delivery);
      await client.invalidateQueries({ queryKey: webhookKeys.deliveries(webhook.id) });
    },
  });
  const heading = `deliveries-${webhook.id}-h`;
  // The webhook's own state may have moved on too: disabled after a day of failures.
  const refresh = () => {
    setResent(null);
    void client.invalidateQueries({ queryKey: webhookKeys.lists });
    void list.refetch();
  };
  return (
    <section className="deliveries" aria-labelledby={heading}>
      <div className="deliveries-head">
        <h3 id={heading}>Latest deliveries</h3>
        <button type="button" className="small secondary" disabled={list.isFetching} onClick={refresh} aria-describedby={heading}>
          Refresh
        </button>
      </div>
      <ErrorNote error={list.error ?? resend.error} />
      <p role="status" className="ok small">
        {resent && !resend.isPending ? `${eventLabel(resent.event)} (${resent.eventId}) is queued to be sent again.` : ''}
      </p>
      {list.isPending && <Loading label="Loading deliveries…" lines={2} />}
      {list.data?.deliveries.length === 0 && <p className="muted small">Nothing sent yet: deliveries show here once one of its events happens.</p>}
      {list.data && list.data.deliveries.length > 0 && (
        <>
          <DeliveryTable deliveries={list.data.deliveries} labelledBy={heading} busy={resend.isPending} onResend={(d) => resend.mutate(d)} />
          <Pagination page={page} maxpage={list.data.maxpage} onPage={setPage} />
        </>
      )}
    </section>
  );
}

interface TableProps {
  deliveries: Delivery[];
  labelledBy: string;
  busy: boolean;
  onResend(delivery: Delivery): void;
}

function DeliveryTable({ deliveries, labelledBy, busy, onResend }: TableProps) {
  return (
    <div className="table-wrap stack-wrap">
      <table className="stack deliveries-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Response</th>
            <th scope="col">Time</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id} data-status={delivery.status} data-event={delivery.event}>
              <td data-label="Event">
                {/* One box per cell: at phone width the cell is a grid of its label and its content. */}
                <span className="cell">
                  {eventLabel(delivery.event)} <code className="muted small">{delivery.eventId}</code>
                </span>
              </td>
              <td data-label="Status">
                <span className="cell">
                  <span className={`badge delivery-${delivery.status}`}>{STATUS[delivery.status]}</span>
                  {delivery.next && <span className="muted small next">next try {formatRelative(delivery.next)}</span>}
                </span>
              </td>
              <td data-label="Attempts" className="num">
                {delivery.attempts}
              </td>
              <td data-label="Response">
                {delivery.responseCode === null ? <span className="muted">none</span> : <code>HTTP {delivery.responseCode}</code>}
              </td>
              <td data-label="Time">
                <When value={delivery.date} />
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  className="small secondary"
                  disabled={busy}
                  aria-label={`Resend ${eventLabel(delivery.event)} ${delivery.eventId}`}
                  onClick={() => onResend(delivery)}
                >
                  Resend
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
