import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNote, Loading, Pagination, When } from '../../lib/ui.js';
import type { ActivityEntry } from '../../lib/types.js';
import { accountKeys, listActivity } from './api.js';

const PAGE_SIZE = 10;

const EVENTS: Record<string, string> = {
  signin: 'Signed in',
  signin_failed: 'Sign-in failed (wrong password)',
  signin_throttled: 'Sign-in refused (too many attempts)',
  signout: 'Signed out',
  signout_all: 'Signed out everywhere',
  password_changed: 'Password changed',
  email_changed: 'E-mail changed',
  key_created: 'API key created',
  key_revoked: 'API key revoked',
  import: 'Links imported',
  export: 'Links exported',
};

export const eventText = (event: string) => EVENTS[event] ?? event.replace(/_/g, ' ');

export function viaText(via: string): string {
  if (via === 'session') return 'Dashboard';
  if (via === 'cli') return 'Command line';
  return `API key “${via}”`;
}

/** The account's activity log, newest first, a page at a time: what happened, when, through what, and from where. */
export function ActivitySection() {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...accountKeys.activity, page],
    queryFn: () => listActivity(page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const maxpage = Math.max(1, Math.ceil((list.data?.result ?? 0) / PAGE_SIZE));
  return (
    <section className="panel" aria-labelledby="activity-h">
      <h2 id="activity-h">Activity</h2>
      <p className="muted small">
        Sign-ins, changes to the account and its keys, imports and exports. IP addresses are kept to their network only: the last part is left out.
      </p>
      <ErrorNote error={list.error} />
      {list.isPending && <Loading />}
      {list.data?.activity.length === 0 && <p className="muted">Nothing logged yet.</p>}
      {list.data && list.data.activity.length > 0 && (
        <>
          <ActivityTable activity={list.data.activity} />
          <Pagination page={page} maxpage={maxpage} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function ActivityTable({ activity }: { activity: ActivityEntry[] }) {
  return (
    <div className="table-wrap stack-wrap">
      <table className="stack activity" aria-labelledby="activity-h">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Via</th>
            <th scope="col">IP</th>
            <th scope="col">Client</th>
          </tr>
        </thead>
        <tbody>
          {activity.map((entry, i) => (
            <tr key={`${entry.date}-${i}`} data-event={entry.event}>
              <td data-label="When">
                <When value={entry.date} />
              </td>
              <td data-label="Event" className={entry.event.endsWith('_failed') || entry.event.endsWith('_throttled') ? 'error' : undefined}>
                {eventText(entry.event)}
              </td>
              <td data-label="Via">{viaText(entry.via)}</td>
              <td data-label="IP">
                <code>{entry.ip || '—'}</code>
              </td>
              <td data-label="Client">{entry.agent || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
