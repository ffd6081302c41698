import { ConditionFields } from './ConditionFields.js';
import { FormField } from './FormField.js';
import { ListButtons } from './ListButtons.js';
import { conditionId, ruleSplitId } from './routing-checks.js';
import { moved, newCondition, type RuleRow } from './routing-form.js';
import { SplitFields } from './SplitFields.js';

const MAX_CONDITIONS = 10;

interface RuleProps {
  index: number;
  count: number;
  rule: RuleRow;
  onChange(rule: RuleRow): void;
  onMove(by: number): void;
  onRemove(): void;
}

/** One rule: the conditions that must all hold, then one address or a split for the visitors who meet them. */
export function RuleFields({ index, count, rule, onChange, onMove, onRemove }: RuleProps) {
  const name = `rule ${index + 1}`;
  const set = (part: Partial<RuleRow>) => onChange({ ...rule, ...part });
  const conditions = rule.conditions;
  return (
    <fieldset className="rule">
      <legend>Rule {index + 1}</legend>
      <div className="rule-head">
        <p className="muted small">{conditions.length > 1 ? 'When all of these hold:' : 'When this holds:'}</p>
        <ListButtons nameAt={(k) => `rule ${k + 1}`} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
      {conditions.map((condition, j) => (
        <ConditionFields
          key={j}
          id={conditionId(index, j)}
          nameAt={(k) => `${name}, condition ${k + 1}`}
          index={j}
          count={conditions.length}
          condition={condition}
          onChange={(c) => set({ conditions: conditions.map((old, k) => (k === j ? c : old)) })}
          onMove={(by) => set({ conditions: moved(conditions, j, by) })}
          onRemove={() => set({ conditions: conditions.filter((_, k) => k !== j) })}
        />
      ))}
      {conditions.length < MAX_CONDITIONS && (
        <button type="button" className="small secondary" onClick={() => set({ conditions: [...conditions, newCondition()] })}>
          Add condition
        </button>
      )}
      <div className="rule-target" role="radiogroup" aria-label={`Where ${name} sends visitors`}>
        <label className="check">
          <input type="radio" name={`rule-${index}-target`} checked={rule.target === 'url'} onChange={() => set({ target: 'url' })} /> Send to one
          address
        </label>
        <label className="check">
          <input type="radio" name={`rule-${index}-target`} checked={rule.target === 'split'} onChange={() => set({ target: 'split' })} /> Split
          between addresses
        </label>
      </div>
      {rule.target === 'url' ? (
        <FormField id={`rule-${index}-url`} label="Send to">
          <input id={`rule-${index}-url`} type="url" inputMode="url" value={rule.url} onChange={(e) => set({ url: e.target.value })} />
        </FormField>
      ) : (
        <SplitFields legend={`Split of rule ${index + 1}`} id={ruleSplitId(index)} split={rule.split} onChange={(split) => set({ split })} />
      )}
    </fieldset>
  );
}
