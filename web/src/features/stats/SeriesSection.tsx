import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { SeriesPoint } from '../../lib/types.js';
import { ErrorNote, Loading } from '../../lib/ui.js';
import { defaultRange, type Range } from './range.js';
import { RangePicker } from './RangePicker.js';

const ClicksChart = lazy(() => import('./ClicksChart.js').then((m) => ({ default: m.ClicksChart })));

/** Clicks over time with its range and interval picker; `load` reads the series of one link, QR code or the account. */
export function SeriesSection({
  title,
  queryKey,
  load,
}: {
  title: string;
  queryKey: readonly unknown[];
  load(range: Range): Promise<SeriesPoint[]>;
}) {
  const [range, setRange] = useState<Range>(defaultRange);
  const series = useQuery({ queryKey: [...queryKey, 'series', range], queryFn: () => load(range), placeholderData: keepPreviousData });
  return (
    <section className="panel" aria-labelledby="series-h">
      <h2 id="series-h">{title}</h2>
      <RangePicker range={range} onChange={setRange} />
      <ErrorNote error={series.error} />
      {series.isPending && <Loading />}
      {series.data && (
        <Suspense fallback={<Loading label="Loading the chart…" />}>
          <ClicksChart points={series.data} interval={range.interval} />
        </Suspense>
      )}
    </section>
  );
}
