import { VISIT_PAGE_DEPTH } from '../../../../src/features/stats/visits-depth.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { getData } from '../../lib/api.js';
import type { ListBody, Visit } from '../../lib/types.js';
import { ErrorNote, formatDateTime, Loading, Pagination } from '../../lib/ui.js';
import { LIVE } from './live.js';
import './stats.css';

const PAGE_SIZE = 20;
/** The last numbered page the API answers (deeper ones need its cursor; the CSV export has every visit). */
const DEEPEST_PAGE = VISIT_PAGE_DEPTH / PAGE_SIZE;

/** A column naming what each visit was to, for lists that mix links and QR codes. */
export interface TargetColumn<T> {
  label: string;
  cell(visit: T): ReactNode;
}

/**
 * Visits newest first, one row each: when, optionally what was visited, and the visitor's labels. At phone width
 * each row is a card of labelled lines, so the table never makes the page wider than the screen; the frame is
 * focusable so a keyboard can scroll it at widths where the row is still wider than the card.
 */
export function VisitsTable<T extends Visit>({ visits, labelledBy, target }: { visits: T[]; labelledBy: string; target?: TargetColumn<T> }) {
  return (
    <div className="table-wrap stack-wrap" tabIndex={0} role="region" aria-labelledby={labelledBy}>
      <table className="visits stack">
        <thead>
          <tr>
            <th scope="col">Time</th>
            {target && <th scope="col">{target.label}</th>}
            <th scope="col">Country</th>
            <th scope="col">Referrer</th>
            <th scope="col">Browser</th>
            <th scope="col">OS</th>
            <th scope="col">Device</th>
          </tr>
        </thead>
        <tbody>
          {visits.map((visit, i) => (
            <tr key={i}>
              <td data-label="Time">
                <time dateTime={`${visit.date.replace(' ', 'T')}Z`}>{formatDateTime(visit.date)}</time>
              </td>
              {target && (
                <td className="url" data-label={target.label}>
                  {target.cell(visit)}
                </td>
              )}
              <td data-label="Country">{visit.country}</td>
              <td className="url" title={visit.referrer} data-label="Referrer">
                {visit.referrer}
              </td>
              <td data-label="Browser">{visit.browser}</td>
              <td data-label="OS">{visit.os}</td>
              <td data-label="Device">{visit.device}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A link's or QR code's visit log (`path` is `/url/{id}` or `/qr/{id}`), pages of 20, newest first. */
export function RecentVisits({ title, path, queryKey }: { title: string; path: string; queryKey: readonly unknown[] }) {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...queryKey, 'visits', page],
    queryFn: () => getData<ListBody<'visits', Visit>>(`${path}/visits`, { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    ...LIVE,
  });
  return (
    <section className="panel" aria-labelledby="visits-h">
      <h2 id="visits-h">{title}</h2>
      <ErrorNote error={list.error} />
      {list.isPending && <Loading />}
      {list.data?.visits.length === 0 && <p className="muted">No visits logged yet.</p>}
      {list.data && list.data.visits.length > 0 && (
        <>
          <VisitsTable visits={list.data.visits} labelledBy="visits-h" />
          <Pagination page={list.data.currentpage} maxpage={Math.min(list.data.maxpage, DEEPEST_PAGE)} onPage={setPage} />
        </>
      )}
    </section>
  );
}
