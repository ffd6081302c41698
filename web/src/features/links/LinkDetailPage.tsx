import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { ErrorNote, Loading, PageTitle } from '../../lib/ui.js';
import { LIVE } from '../stats/live.js';
import { SeriesSection } from '../stats/SeriesSection.js';
import { StatsPanels } from '../stats/StatsPanels.js';
import { RecentVisits } from '../stats/VisitsTable.js';
import { deleteLink, getLink, linkKeys, linkSeries } from './api.js';
import { LinkSummary } from './LinkSummary.js';

/** One link: what it does, its clicks over time, where its visitors come from, and its recent visits. */
export default function LinkDetailPage({ id }: { id: number }) {
  // Its totals and label maps refresh with the chart and the visits (figures only; the summary changes on edit).
  const link = useQuery({ queryKey: linkKeys.detail(id), queryFn: () => getLink(id), ...LIVE });
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
      <LinkSummary details={details} totals={data} />
      <SeriesSection title="Clicks over time" queryKey={linkKeys.detail(id)} load={(range) => linkSeries(id, range)} />
      <StatsPanels stats={data} />
      <RecentVisits title="Recent visits" path={`/url/${id}`} queryKey={linkKeys.detail(id)} />
    </>
  );
}
