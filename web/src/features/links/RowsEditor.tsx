import { useState } from 'react';
import { UTM_FIELDS, withUtm, type Row } from './form.js';

// The editor of pairs moved to lib/, where bio pages' links use it too.
export { RowsEditor } from '../../lib/RowsEditor.js';

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
            <label htmlFor={`utm-${name}`}>
              {name.replace('utm_', '').replace(/^./, (c) => c.toUpperCase())} <code>{name}</code>
            </label>
            <input id={`utm-${name}`} value={utm[name]} onChange={(e) => setUtm({ ...utm, [name]: e.target.value })} />
          </div>
        ))}
      </div>
      <button type="button" className="small secondary" onClick={() => onChange(withUtm(parameters, utm))}>
        Apply to parameters
      </button>
    </fieldset>
  );
}
