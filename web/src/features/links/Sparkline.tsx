import { useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { SparklineResponse } from '../../../../src/features/stats/sparkline-schema.js';
import { getData } from '../../lib/api.js';
import { formatNumber, plural } from '../../lib/ui.js';

export const SPARK_DAYS = 7;
type Lines = Static<typeof SparklineResponse>['data'];

/** The last 7 days of every row on screen in ONE request (GET /api/urls/sparklines), not one per row. */
export function useSparklines(ids: number[]) {
  const list = ids.join(',');
  return useQuery({
    // Under ['links'], so every change to the links list refreshes the lines with it.
    queryKey: ['links', 'sparklines', list],
    queryFn: () => getData<{ data: Lines }>('/urls/sparklines', { ids: list, days: SPARK_DAYS }),
    enabled: ids.length > 0,
  });
}

const [W, H, PAD] = [64, 20, 2];

/** A tiny line of daily clicks, oldest on the left; its label says the total for screen readers. */
export function Sparkline({ values }: { values: number[] | undefined }) {
  if (!values) return <span className="spark spark-empty" aria-hidden="true" />;
  const total = values.reduce((sum, n) => sum + n, 0);
  const top = Math.max(1, ...values);
  const step = values.length > 1 ? (W - 2 * PAD) / (values.length - 1) : 0;
  const points = values.map((n, i) => `${(PAD + i * step).toFixed(1)},${(H - PAD - (n / top) * (H - 2 * PAD)).toFixed(1)}`);
  const label = `${formatNumber(total)} ${plural(total, 'click')} in the last ${values.length} days`;
  return (
    <svg className={total ? 'spark' : 'spark spark-flat'} viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={label}>
      <title>{label}</title>
      <polyline points={points.join(' ')} fill="none" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
