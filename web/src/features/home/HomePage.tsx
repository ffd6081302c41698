import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { getData } from '../../lib/api.js';
import type { LatestVisitsBody, SeriesPoint } from '../../lib/types.js';
import { ErrorNote, formatNumber, Loading, PageTitle, plural } from '../../lib/ui.js';
import { linkKeys, listLinks } from '../links/api.js';
import { HealthBadge } from '../links/HealthBadge.js';
import { LIVE } from '../stats/live.js';
import { SeriesSection } from '../stats/SeriesSection.js';
import { VisitsTable } from '../stats/VisitsTable.js';

/** The account at a glance: all clicks over time, the most clicked links and the latest visits, kept up to date. */
export default function HomePage() {
  const top = useQuery({
    queryKey: linkKeys.list({ page: 1, limit: 10, order: 'click', q: '' }),
    queryFn: () => listLinks({ page: 1, limit: 10, order: 'click', q: '' }),
    ...LIVE,
  });
  return (
    <>
      <PageTitle title="Overview">
        <Link href="/links/new" className="button">
          New link
        </Link>
      </PageTitle>
      <SeriesSection
        title="Clicks on all your links and QR codes"
        queryKey={['account']}
        load={(range) => getData<{ data: SeriesPoint[] }>('/stats/clicks', { ...range })}
      />
      <section className="panel" aria-labelledby="top-h">
        <h2 id="top-h">Top links</h2>
        <ErrorNote error={top.error} />
        {top.isPending && <Loading />}
        {top.data?.urls.length === 0 && (
          <p>
            No links yet. <Link href="/links/new">Create your first link</Link>.
          </p>
        )}
        {top.data && top.data.urls.length > 0 && (
          <ol className="top-links">
            {top.data.urls.map((link) => (
              <li key={link.id}>
                <Link href={`/links/${link.id}`}>{link.title || shown(link.shorturl)}</Link>
                <span className="url muted small">{link.longurl}</span>
                <span className="num">
                  {formatNumber(link.clicks)} <span className="muted small">{plural(link.clicks, 'click')}</span>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <BrokenLinks />
      <LatestVisits />
    </>
  );
}

const BROKEN = { page: 1, limit: 5, order: 'date', q: '', health: 'broken' } as const;

/** Links whose destination the last check found broken: the five newest, and the way to all of them. */
function BrokenLinks() {
  const broken = useQuery({ queryKey: linkKeys.list(BROKEN), queryFn: () => listLinks(BROKEN), ...LIVE });
  return (
    <section className="panel" aria-labelledby="broken-h">
      <h2 id="broken-h">Broken links</h2>
      <ErrorNote error={broken.error} />
      {broken.isPending && <Loading />}
      {broken.data?.urls.length === 0 && <p className="muted">No broken links: every destination checked so far answers.</p>}
      {broken.data && broken.data.urls.length > 0 && (
        <>
          <ul className="top-links">
            {broken.data.urls.map((link) => (
              <li key={link.id}>
                <Link href={`/links/${link.id}`}>{link.title || shown(link.shorturl)}</Link>
                <span className="url muted small">{link.longurl}</span>
                <HealthBadge health={link.health} />
              </li>
            ))}
          </ul>
          <p>
            <Link href="/links?health=broken">
              Show all {formatNumber(broken.data.result)} broken {plural(broken.data.result, 'link')}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

const shown = (url: string) => url.replace(/^https?:\/\//, '');

/** The latest visits of all the account's links and QR codes, each naming and linking what was visited. */
function LatestVisits() {
  const latest = useQuery({ queryKey: ['visits', 'latest'], queryFn: () => getData<LatestVisitsBody>('/visits', { limit: 15 }), ...LIVE });
  return (
    <section className="panel" aria-labelledby="latest-h">
      <h2 id="latest-h">Latest visits</h2>
      <ErrorNote error={latest.error} />
      {latest.isPending && <Loading />}
      {latest.data?.visits.length === 0 && <p className="muted">No recent visits to your links and QR codes.</p>}
      {latest.data && latest.data.visits.length > 0 && (
        <VisitsTable
          visits={latest.data.visits}
          labelledBy="latest-h"
          target={{
            label: 'Link or QR code',
            cell: (v) => <Link href={v.type === 'link' ? `/links/${v.id}` : `/qr/${v.id}`}>{shown(v.name)}</Link>,
          }}
        />
      )}
    </section>
  );
}
