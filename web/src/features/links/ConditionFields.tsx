import { CountryCombobox } from './CountryCombobox.js';
import { FormField } from './FormField.js';
import { ListButtons } from './ListButtons.js';
import { CONDITION_TYPES, newCondition, type ConditionRow, type ConditionType } from './routing-form.js';

export const TYPE_LABELS: Record<ConditionType, string> = {
  query: 'Query parameter',
  ip: 'IP address',
  date: 'Date',
  browser: 'Browser',
  os: 'Operating system',
  device: 'Device',
  language: 'Language',
  country: 'Country',
};

// Suggestions, not limits: the API takes any name its user-agent and language parsing knows.
const SUGGESTIONS: Partial<Record<ConditionType, string[]>> = {
  browser: ['chrome', 'firefox', 'safari', 'edge', 'opera', 'samsung'],
  os: ['ios', 'android', 'windows', 'macos', 'linux', 'chromeos'],
  device: ['mobile', 'tablet', 'desktop', 'iphone', 'ipad', 'android'],
  language: ['en', 'de', 'fr', 'es', 'pt', 'pt-br', 'it', 'nl', 'ja', 'zh'],
};

interface ConditionProps {
  /** The condition's id (`rule-0-cond-1`): its first input's, which the errors name; the others add a suffix. */
  id: string;
  /** The condition's name at a place in its rule ("rule 1, condition 2"). */
  nameAt(index: number): string;
  index: number;
  count: number;
  condition: ConditionRow;
  onChange(condition: ConditionRow): void;
  onMove(by: number): void;
  onRemove(): void;
}

/** One condition of a rule: its kind, then the one or two values that kind needs. */
export function ConditionFields({ id, nameAt, index, count, condition, onChange, onMove, onRemove }: ConditionProps) {
  const name = nameAt(index);
  const set = (part: Partial<ConditionRow>) => onChange({ ...condition, ...part });
  return (
    <div className="condition" role="group" aria-label={name.replace(/^./, (c) => c.toUpperCase())}>
      <FormField id={`${id}-type`} label="If">
        <select id={`${id}-type`} value={condition.type} onChange={(e) => onChange(newCondition(e.target.value as ConditionType))}>
          {CONDITION_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </FormField>
      <Operands id={id} condition={condition} set={set} />
      <ListButtons nameAt={nameAt} index={index} count={count} min={1} onMove={onMove} onRemove={onRemove} />
    </div>
  );
}

function Operands({ id, condition, set }: { id: string; condition: ConditionRow; set(part: Partial<ConditionRow>): void }) {
  const { type } = condition;
  if (type === 'query')
    return (
      <>
        <FormField id={id} label="Name">
          <input id={id} value={condition.name} autoComplete="off" placeholder="ref" onChange={(e) => set({ name: e.target.value })} />
        </FormField>
        <FormField id={`${id}-value`} label="Equals" hint="Empty: any value.">
          <input id={`${id}-value`} value={condition.value} disabled={condition.absent} onChange={(e) => set({ value: e.target.value })} />
        </FormField>
        <label className="check condition-check">
          <input type="checkbox" checked={condition.absent} onChange={(e) => set({ absent: e.target.checked, value: '' })} /> Absent
        </label>
      </>
    );
  if (type === 'date')
    return (
      <>
        <FormField id={id} label="From" hint="Your local time.">
          <input id={id} type="datetime-local" step={1} value={condition.after} onChange={(e) => set({ after: e.target.value })} />
        </FormField>
        <FormField id={`${id}-before`} label="Until" hint="Not included.">
          <input id={`${id}-before`} type="datetime-local" step={1} value={condition.before} onChange={(e) => set({ before: e.target.value })} />
        </FormField>
      </>
    );
  if (type === 'country')
    return (
      <FormField id={id} label="Is">
        <CountryCombobox id={id} value={condition.value} onChange={(value) => set({ value })} />
      </FormField>
    );
  const list = SUGGESTIONS[type];
  return (
    <FormField id={id} label={type === 'ip' ? 'In network' : 'Is'} hint={type === 'ip' ? 'An address or a CIDR network.' : undefined}>
      <input
        id={id}
        value={condition.value}
        autoComplete="off"
        placeholder={type === 'ip' ? '203.0.113.0/24' : list?.[0]}
        list={list ? `${type}-suggestions` : undefined}
        onChange={(e) => set({ value: e.target.value })}
      />
    </FormField>
  );
}

/** The datalists the value inputs point at, once per form. */
export function ConditionSuggestions() {
  return (
    <>
      {Object.entries(SUGGESTIONS).map(([type, values]) => (
        <datalist key={type} id={`${type}-suggestions`}>
          {values.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      ))}
    </>
  );
}
