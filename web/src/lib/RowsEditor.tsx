import type { Row } from './types.js';
import './RowsEditor.css';

interface RowsEditorProps {
  legend: string;
  id: string;
  rows: Row[];
  keyLabel: string;
  valueLabel: string;
  keyList?: string[];
  valueType?: 'url' | 'text';
  /** What one row is, for its add and remove buttons; the key's label by default. */
  noun?: string;
  /** A message per row, shown beside it; its value field is then marked invalid. */
  errors?: (string | undefined)[];
  onChange(rows: Row[]): void;
}

/** Pairs of texts (a target and its URL, a parameter and its value) that can be added and removed. */
export function RowsEditor({
  legend,
  id,
  rows,
  keyLabel,
  valueLabel,
  keyList,
  valueType = 'url',
  noun = keyLabel.toLowerCase(),
  errors = [],
  onChange,
}: RowsEditorProps) {
  const set = (i: number, row: Partial<Row>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  return (
    <fieldset className="rows">
      <legend>{legend}</legend>
      {keyList && (
        <datalist id={`${id}-list`}>
          {keyList.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
      )}
      {rows.map((row, i) => (
        <div className="row" key={i}>
          <div className="field">
            <label htmlFor={`${id}-${i}-key`}>{keyLabel}</label>
            <input
              id={`${id}-${i}-key`}
              value={row.key}
              list={keyList ? `${id}-list` : undefined}
              onChange={(e) => set(i, { key: e.target.value })}
            />
          </div>
          <div className="field grow">
            <label htmlFor={`${id}-${i}-value`}>{valueLabel}</label>
            <input
              id={`${id}-${i}-value`}
              type={valueType}
              value={row.value}
              aria-invalid={errors[i] ? true : undefined}
              aria-describedby={errors[i] ? `${id}-${i}-error` : undefined}
              onChange={(e) => set(i, { value: e.target.value })}
            />
          </div>
          {errors[i] && (
            <p className="error row-error" id={`${id}-${i}-error`}>
              {errors[i]}
            </p>
          )}
          <button
            type="button"
            className="small secondary"
            aria-label={`Remove ${noun} ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="small secondary" onClick={() => onChange([...rows, { key: '', value: '' }])}>
        Add {noun}
      </button>
    </fieldset>
  );
}
