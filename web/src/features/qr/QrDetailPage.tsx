import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { ErrorNote, formatDate, formatNumber, Loading, PageTitle } from '../../lib/ui.js';
import { SeriesSection } from '../stats/SeriesSection.js';
import { StatsPanels } from '../stats/StatsPanels.js';
import { RecentVisits } from '../stats/VisitsTable.js';
import { deleteQr, getQr, qrImage, qrKeys, qrSeries } from './api.js';

export default function QrDetailPage({ id }: { id: number }) {
  const qr = useQuery({ queryKey: qrKeys.detail(id), queryFn: () => getQr(id) });
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const remove = useMutation({
    mutationFn: () => deleteQr(id),
    onSuccess: async () => {
      client.removeQueries({ queryKey: qrKeys.detail(id) });
      await client.invalidateQueries({ queryKey: qrKeys.all });
      navigate('/qr');
    },
  });
  if (!qr.data)
    return (
      <>
        <PageTitle title="QR code" />
        <ErrorNote error={qr.error} />
        {qr.isPending && <Loading />}
      </>
    );
  const { details, data } = qr.data;
  return (
    <>
      <PageTitle title={details.name}>
        <Link href={`/qr/${id}/edit`} className="button secondary">
          Edit
        </Link>
        <ConfirmButton label="Delete" confirm="Delete this QR code" busy={remove.isPending} onConfirm={() => remove.mutate()} />
      </PageTitle>
      <ErrorNote error={remove.error} />
      <section className="panel two">
        <img className="qr-image" src={qrImage(details.link, 'png', 512)} alt={`QR code ${details.name}`} width={256} height={256} />
        <div>
          <p>
            <strong>{formatNumber(data.clicks)}</strong> scans, <strong>{formatNumber(data.uniqueClicks)}</strong> unique · created{' '}
            {formatDate(details.date)}
          </p>
          <p className="actions">
            <a className="button" href={qrImage(details.link, 'png', 1024)} download={`qr-${id}.png`}>
              Download PNG
            </a>
            <a className="button secondary" href={qrImage(details.link, 'svg')} download={`qr-${id}.svg`}>
              Download SVG
            </a>
          </p>
        </div>
      </section>
      <SeriesSection title="Scans over time" queryKey={qrKeys.detail(id)} load={(range) => qrSeries(id, range)} />
      <StatsPanels stats={data} />
      <RecentVisits title="Recent scans" path={`/qr/${id}`} queryKey={qrKeys.detail(id)} />
    </>
  );
}
