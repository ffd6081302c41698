import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { CopyButton } from '../../lib/CopyButton.js';
import type { LinkDetailBody } from '../../lib/types.js';
import { ErrorNote, formatDate, formatNumber, Loading, PageTitle, plural } from '../../lib/ui.js';
import { SeriesSection } from '../stats/SeriesSection.js';
import { StatsPanels } from '../stats/StatsPanels.js';
import { RecentVisits } from '../stats/VisitsTable.js';
import { deleteLink, getLink, linkKeys, linkSeries } from './api.js';

/** One link: what it does, its clicks over time, where its visitors come from, and its recent visits. */
export default function LinkDetailPage({ id }: { id: number }) {
  const link = useQuery({ queryKey: linkKeys.detail(id), queryFn: () => getLink(id) });
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const remove = useMutation({
    mutationFn: () => deleteLink(id),
    onSuccess: async () => {
      client.removeQueries({ queryKey: linkKeys.detail(id) });
      await client.invalidateQueries({ queryKey: linkKeys.all });
      navigate('/links');
    },
  });
  if (!link.data)
    return (
      <>
        <PageTitle title="Link" />
        <ErrorNote error={link.error} />
        {link.isPending && <Loading />}
      </>
    );
  const { details, data } = link.data;
  return (
    <>
      <PageTitle title={details.title || details.shorturl.replace(/^https?:\/\//, '')}>
        <Link href={`/links/${id}/edit`} className="button secondary">
          Edit
        </Link>
        <ConfirmButton label="Delete" confirm="Delete this link" busy={remove.isPending} onConfirm={() => remove.mutate()} />
      </PageTitle>
      <ErrorNote error={remove.error} />
      <Summary details={details} totals={data} />
      <SeriesSection title="Clicks over time" queryKey={linkKeys.detail(id)} load={(range) => linkSeries(id, range)} />
      <StatsPanels stats={data} />
      <RecentVisits title="Recent visits" path={`/url/${id}`} queryKey={linkKeys.detail(id)} />
    </>
  );
}

function Summary({ details, totals }: { details: LinkDetailBody['details']; totals: { clicks: number; uniqueClicks: number } }) {
  const targets = [
    ...Object.entries(details.location).map(([k, v]) => [`Country ${k}`, v]),
    ...Object.entries(details.device).map(([k, v]) => [`Device ${k}`, v]),
  ];
  return (
    <section className="panel summary">
      <dl>
        <div>
          <dt>Short link</dt>
          <dd>
            <a href={details.shorturl}>{details.shorturl}</a> <CopyButton text={details.shorturl} />
          </dd>
        </div>
        <div>
          <dt>Destination</dt>
          <dd className="url">
            <a href={details.longurl} rel="noreferrer">
              {details.longurl}
            </a>
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(details.date)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{details.expiry ? `${details.expiry} UTC` : 'Never'}</dd>
        </div>
        {targets.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd className="url">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="totals">
        <p>
          <strong data-testid="total-clicks">{formatNumber(totals.clicks)}</strong> <span className="muted">{plural(totals.clicks, 'click')}</span>
        </p>
        <p>
          <strong>{formatNumber(totals.uniqueClicks)}</strong> <span className="muted">unique</span>
        </p>
      </div>
    </section>
  );
}
