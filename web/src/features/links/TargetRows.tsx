import { CountryCombobox } from './CountryCombobox.js';
import type { Row } from './form.js';
import { FormField } from './FormField.js';

interface TargetRowsProps {
  legend: string;
  /** Prefix of the inputs' ids: `{id}-{row}-key` and `{id}-{row}-value`, which the form's errors name. */
  id: string;
  rows: Row[];
  keyLabel: string;
  valueLabel: string;
  /** Suggestions for the key (a datalist), or `countries` for the searchable country list. */
  keyList?: string[] | 'countries';
  valueType?: 'url' | 'text';
  /** What one row is, for its add and remove buttons; the key's label by default. */
  noun?: string;
  onChange(rows: Row[]): void;
}

/** Pairs of texts (a target and its URL, a parameter and its value), each input with its own error beside it. */
export function TargetRows({
  legend,
  id,
  rows,
  keyLabel,
  valueLabel,
  keyList,
  valueType = 'url',
  noun = keyLabel.toLowerCase(),
  onChange,
}: TargetRowsProps) {
  const set = (i: number, row: Partial<Row>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  const listed = Array.isArray(keyList);
  return (
    <fieldset className="rows">
      <legend>{legend}</legend>
      {listed && (
        <datalist id={`${id}-list`}>
          {keyList.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
      )}
      {rows.map((row, i) => (
        <div className="row" key={i}>
          <FormField id={`${id}-${i}-key`} label={keyLabel}>
            {keyList === 'countries' ? (
              <CountryCombobox id={`${id}-${i}-key`} value={row.key} onChange={(key) => set(i, { key })} />
            ) : (
              <input
                id={`${id}-${i}-key`}
                value={row.key}
                list={listed ? `${id}-list` : undefined}
                onChange={(e) => set(i, { key: e.target.value })}
              />
            )}
          </FormField>
          <FormField id={`${id}-${i}-value`} label={valueLabel} className="grow">
            <input
              id={`${id}-${i}-value`}
              type={valueType === 'url' ? 'url' : 'text'}
              inputMode={valueType === 'url' ? 'url' : undefined}
              value={row.value}
              onChange={(e) => set(i, { value: e.target.value })}
            />
          </FormField>
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
