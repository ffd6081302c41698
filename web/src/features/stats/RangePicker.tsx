import { useId } from 'react';
import { INTERVALS, PRESETS, presetPeriod, type Interval, type Period, type Range } from './range.js';

/** A preset or own dates, and the bucket size; hourly spans are limited by the server (it says so if too long). */
export function RangePicker({ period, onChange }: { period: Period; onChange(period: Period): void }) {
  const id = useId();
  const { range } = period;
  // Own dates or interval leave the preset: the picker then says "Own dates".
  const own = (next: Partial<Range>) => onChange({ range: { ...range, ...next }, preset: null });
  return (
    <fieldset className="range">
      <legend className="visually-hidden">Range</legend>
      <div className="field">
        <label htmlFor={`${id}-preset`}>Period</label>
        <select
          id={`${id}-preset`}
          value={period.preset ?? ''}
          onChange={(e) => (e.target.value === '' ? onChange({ range, preset: null }) : onChange(presetPeriod(Number(e.target.value))))}
        >
          <option value="">Own dates</option>
          {PRESETS.map((p, i) => (
            <option key={p.label} value={i}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-from`}>From</label>
        <input id={`${id}-from`} type="date" value={range.from} max={range.to} onChange={(e) => e.target.value && own({ from: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>To</label>
        <input id={`${id}-to`} type="date" value={range.to} min={range.from} onChange={(e) => e.target.value && own({ to: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-interval`}>Interval</label>
        <select id={`${id}-interval`} value={range.interval} onChange={(e) => own({ interval: e.target.value as Interval })}>
          {INTERVALS.map((i) => (
            <option key={i} value={i}>
              {i === 'hour' ? 'Hourly' : `${i[0]!.toUpperCase()}${i.slice(1)}ly`.replace('Dayly', 'Daily')}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}
