import { useState } from 'react';
import { UTM_FIELDS, withUtm, type Row } from './form.js';

interface RowsEditorProps {
  legend: string;
  id: string;
  rows: Row[];
  keyLabel: string;
  valueLabel: string;
  keyList?: string[];
  valueType?: 'url' | 'text';
  onChange(rows: Row[]): void;
}

/** Pairs of texts (a target and its URL, a parameter and its value) that can be added and removed. */
export function RowsEditor({ legend, id, rows, keyLabel, valueLabel, keyList, valueType = 'url', onChange }: RowsEditorProps) {
  const set = (i: number, row: Partial<Row>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  return (
    <fieldset className="rows">
      <legend>{legend}</legend>
      {keyList && <datalist id={`${id}-list`}>{keyList.map((k) => <option key={k} value={k} />)}</datalist>}
      {rows.map((row, i) => (
        <div className="row" key={i}>
          <div className="field">
            <label htmlFor={`${id}-${i}-key`}>{keyLabel}</label>
            <input id={`${id}-${i}-key`} value={row.key} list={keyList ? `${id}-list` : undefined} onChange={(e) => set(i, { key: e.target.value })} />
          </div>
          <div className="field grow">
            <label htmlFor={`${id}-${i}-value`}>{valueLabel}</label>
            <input id={`${id}-${i}-value`} type={valueType} value={row.value} onChange={(e) => set(i, { value: e.target.value })} />
          </div>
          <button type="button" className="small secondary" aria-label={`Remove ${keyLabel.toLowerCase()} ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove</button>
        </div>
      ))}
      <button type="button" className="small secondary" onClick={() => onChange([...rows, { key: '', value: '' }])}>Add {keyLabel.toLowerCase()}</button>
    </fieldset>
  );
}

/** The five UTM fields, written into the parameters on request. */
export function UtmBuilder({ parameters, onChange }: { parameters: Row[]; onChange(rows: Row[]): void }) {
  const current = Object.fromEntries(UTM_FIELDS.map((name) => [name, parameters.find((p) => p.key === name)?.value ?? '']));
  const [utm, setUtm] = useState<Record<string, string>>(current);
  return (
    <fieldset className="utm">
      <legend>UTM builder</legend>
      <div className="grid tight">
        {UTM_FIELDS.map((name) => (
          <div className="field" key={name}>
            <label htmlFor={`utm-${name}`}>{name.replace('utm_', '').replace(/^./, (c) => c.toUpperCase())} <code>{name}</code></label>
            <input id={`utm-${name}`} value={utm[name]} onChange={(e) => setUtm({ ...utm, [name]: e.target.value })} />
          </div>
        ))}
      </div>
      <button type="button" className="small secondary" onClick={() => onChange(withUtm(parameters, utm))}>Apply to parameters</button>
    </fieldset>
  );
}
