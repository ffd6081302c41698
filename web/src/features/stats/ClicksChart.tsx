import { useEffect, useRef, useSyncExternalStore } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SeriesPoint } from '../../lib/types.js';
import { formatNumber, plural } from '../../lib/ui.js';
import { bucketTime, type Interval } from './range.js';

const DARK = matchMedia('(prefers-color-scheme: dark)');
const subscribe = (onChange: () => void) => {
  DARK.addEventListener('change', onChange);
  return () => DARK.removeEventListener('change', onChange);
};
/** The canvas takes its colours when drawn: a switch of the system's mode redraws it. */
const useDark = () => useSyncExternalStore(subscribe, () => DARK.matches);

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

function options(width: number, interval: Interval): uPlot.Options {
  const [text, grid, accent, second] = [css('--text-muted'), css('--border'), css('--accent'), css('--accent-2')];
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: 240,
    // Buckets are UTC: the axis shows them as the API counts them.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, 4)] } },
    axes: [axis, { ...axis, size: 48, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatNumber(v) : '')) }],
    series: [
      { label: interval === 'hour' ? 'Hour (UTC)' : 'Date (UTC)' },
      { label: 'Clicks', stroke: accent, width: 2, fill: `${accent}22`, points: { show: false } },
      { label: 'Unique', stroke: second, width: 2, dash: [6, 4], points: { show: false } },
    ],
  };
}

/** Total and unique clicks per bucket as a line chart; the numbers are also in a table below it. */
export function ClicksChart({ points, interval }: { points: SeriesPoint[]; interval: Interval }) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDark();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [points.map((p) => bucketTime(p.date)), points.map((p) => p.clicks), points.map((p) => p.uniqueClicks)];
    const chart = new uPlot(options(el.clientWidth || 600, interval), data, el);
    const observer = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height: 240 }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [points, interval, dark]);
  const total = points.reduce((sum, p) => sum + p.clicks, 0);
  const unique = points.reduce((sum, p) => sum + p.uniqueClicks, 0);
  return (
    <figure className="chart">
      <div ref={box} role="img" aria-label={`Clicks over time: ${total} clicks, ${unique} unique, in ${points.length} buckets`} data-total={total} />
      <figcaption>
        <strong data-testid="range-clicks">{formatNumber(total)}</strong> {plural(total, 'click')}, <strong>{formatNumber(unique)}</strong> unique in
        this range
      </figcaption>
      <details>
        <summary>Show as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{interval === 'hour' ? 'Hour (UTC)' : 'From (UTC)'}</th>
              <th scope="col">Clicks</th>
              <th scope="col">Unique</th>
            </tr>
          </thead>
          <tbody>
            {points
              .filter((p) => p.clicks > 0)
              .map((p) => (
                <tr key={p.date}>
                  <td>{p.date}</td>
                  <td>{formatNumber(p.clicks)}</td>
                  <td>{formatNumber(p.uniqueClicks)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
