import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { EmptyState } from '../../lib/EmptyState.js';
import { ErrorNote, formatDate, formatNumber, Loading, PageTitle, Pagination } from '../../lib/ui.js';
import { deleteQr, listQr, qrImage, qrKeys } from './api.js';

export default function QrListPage() {
  const [page, setPage] = useState(1);
  const client = useQueryClient();
  const list = useQuery({ queryKey: qrKeys.list(page), queryFn: () => listQr(page), placeholderData: keepPreviousData });
  const remove = useMutation({ mutationFn: deleteQr, onSuccess: () => client.invalidateQueries({ queryKey: qrKeys.all }) });
  return (
    <>
      <PageTitle title="QR codes">
        <Link href="/qr/new" className="button">
          New QR code
        </Link>
      </PageTitle>
      <ErrorNote error={list.error ?? remove.error} />
      {list.isPending && <Loading />}
      {list.data?.qrs.length === 0 && (
        <EmptyState title="No QR codes yet" action={{ label: 'Create a QR code', href: '/qr/new' }}>
          Make a code people scan with their phone to open a link, write an e-mail, call you or save your contact card.
        </EmptyState>
      )}
      {list.data && list.data.qrs.length > 0 && (
        <ul className="qr-list">
          {list.data.qrs.map((qr) => (
            <li key={qr.id} className="panel">
              <img src={qrImage(qr.link, 'png', 128)} alt="" width={96} height={96} loading="lazy" />
              <div>
                <Link href={`/qr/${qr.id}`} className="strong">
                  {qr.name}
                </Link>
                <p className="muted small">
                  {formatNumber(qr.scans)} scans · {formatDate(qr.date)}
                </p>
                <ConfirmButton label="Delete" confirm={`Delete ${qr.name}`} busy={remove.isPending} onConfirm={() => remove.mutate(qr.id)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pagination page={list.data.currentpage} maxpage={list.data.maxpage} onPage={setPage} />}
    </>
  );
}
