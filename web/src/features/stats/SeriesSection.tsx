import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import type { SeriesPoint } from '../../lib/types.js';
import { ErrorNote, Loading } from '../../lib/ui.js';
import { LIVE, REFRESH_MS, usePeriod } from './live.js';
import { lastHours, PRESETS, type Range } from './range.js';
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
  const [period, setPeriod] = usePeriod();
  const { range } = period;
  const series = useQuery({ queryKey: [...queryKey, 'series', range], queryFn: () => load(range), placeholderData: keepPreviousData, ...LIVE });
  const hours = period.preset === null ? undefined : PRESETS[period.preset]?.hours;
  const points = useMemo(() => (series.data && hours ? lastHours(series.data, hours) : series.data), [series.data, hours]);
  return (
    <section className="panel" aria-labelledby="series-h" data-refresh-ms={REFRESH_MS}>
      <h2 id="series-h">{title}</h2>
      <RangePicker period={period} onChange={setPeriod} />
      <ErrorNote error={series.error} />
      {series.isPending && <Loading />}
      {points && (
        <Suspense fallback={<Loading label="Loading the chart…" />}>
          <ClicksChart points={points} interval={range.interval} />
        </Suspense>
      )}
    </section>
  );
}
