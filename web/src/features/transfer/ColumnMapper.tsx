import { COLUMN_FIELD_NAMES, IGNORE, type ColumnField } from '../../../../src/features/links/transfer/column-names.js';
import './ColumnMapper.css';

export type Choice = ColumnField | typeof IGNORE;

const CHOICES: Choice[] = [...COLUMN_FIELD_NAMES, IGNORE];

const LABELS: Record<Choice, string> = {
  url: 'Destination URL',
  alias: 'Alias (back-half)',
  title: 'Title',
  description: 'Description',
  tags: 'Tags',
  ignore: 'Ignore this column',
};

/** The file's columns, each with the field it fills; names the server recognises come preselected. */
export function ColumnMapper({ header, value, onChange }: { header: string[]; value: Choice[]; onChange(value: Choice[]): void }) {
  const hasUrl = value.includes('url');
  const twice = new Set(value.filter((choice, i) => choice !== IGNORE && value.indexOf(choice) !== i));
  return (
    <fieldset className="column-mapper">
      <legend>Columns</legend>
      <p className="muted small">Choose what each column of the file holds. Columns left on “Ignore” are not imported.</p>
      <ol>
        {header.map((name, i) => (
          <li key={i}>
            <label htmlFor={`column-${i}`}>
              <span className="column-name">{name.trim() || `Column ${i + 1}`}</span>
            </label>
            <select id={`column-${i}`} value={value[i]} onChange={(e) => onChange(value.map((v, j) => (j === i ? (e.target.value as Choice) : v)))}>
              {CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {LABELS[choice]}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ol>
      {!hasUrl && (
        <p className="error" role="alert">
          Choose the column that holds each link’s destination URL.
        </p>
      )}
      {twice.size > 0 && (
        <p className="error" role="alert">
          {[...twice].map((choice) => LABELS[choice]).join(', ')}: choose one column only.
        </p>
      )}
    </fieldset>
  );
}

/** True when the mapping can be sent: one destination column, no field twice. */
export const mappingReady = (value: Choice[]) =>
  value.includes('url') && value.every((choice, i) => choice === IGNORE || value.indexOf(choice) === i);
