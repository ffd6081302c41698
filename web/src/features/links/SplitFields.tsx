import { FieldError, FormField } from './FormField.js';
import { newVariant, shares, type VariantRow } from './routing-form.js';

const MIN = 2;
const MAX = 10;

interface SplitProps {
  legend: string;
  /** Prefix of the inputs' ids: `{id}-{k}-url`, `{id}-{k}-weight`; `{id}` itself names an error of the whole split. */
  id: string;
  split: VariantRow[];
  onChange(split: VariantRow[]): void;
}

/** 2 to 10 addresses, each with a relative weight and the share of visitors that weight gives it. */
export function SplitFields({ legend, id, split, onChange }: SplitProps) {
  const set = (k: number, part: Partial<VariantRow>) => onChange(split.map((v, j) => (j === k ? { ...v, ...part } : v)));
  const percent = shares(split);
  return (
    <fieldset className="rows split">
      <legend>{legend}</legend>
      <FieldError id={id} />
      {split.map((variant, k) => (
        <div className="row" key={k}>
          <FormField id={`${id}-${k}-url`} label={`Variant ${k + 1}`} className="grow">
            <input id={`${id}-${k}-url`} type="url" inputMode="url" value={variant.url} onChange={(e) => set(k, { url: e.target.value })} />
          </FormField>
          <FormField id={`${id}-${k}-weight`} label="Weight" className="weight">
            <input
              id={`${id}-${k}-weight`}
              type="number"
              min={1}
              max={10000}
              step={1}
              inputMode="numeric"
              value={variant.weight}
              onChange={(e) => set(k, { weight: e.target.value })}
            />
          </FormField>
          <output className="share" htmlFor={`${id}-${k}-weight`} aria-label={`Variant ${k + 1} share`}>
            {percent[k]}%
          </output>
          {split.length > MIN && (
            <button
              type="button"
              className="small secondary"
              aria-label={`Remove variant ${k + 1} of ${legend.toLowerCase()}`}
              onClick={() => onChange(split.filter((_, j) => j !== k))}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      {split.length < MAX && (
        <button type="button" className="small secondary" onClick={() => onChange([...split, newVariant()])}>
          Add variant
        </button>
      )}
    </fieldset>
  );
}
