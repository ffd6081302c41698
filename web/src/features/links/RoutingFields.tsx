import { ConditionSuggestions } from './ConditionFields.js';
import { withScheme } from './form-texts.js';
import { FormField } from './FormField.js';
import type { SectionProps } from './LinkSections.js';
import { moved, newRule, newSplit } from './routing-form.js';
import { RuleFields } from './RuleFields.js';
import { SplitFields } from './SplitFields.js';
import './Routing.css';

const MAX_RULES = 20;

/** The routing section: ordered rules, the default split, the visit cap and where an expired link sends visitors. */
export function RoutingFields({ form, set }: SectionProps) {
  const { rules } = form;
  return (
    <>
      <ConditionSuggestions />
      <p className="muted small">Rules are tried in order and the first whose conditions all hold wins, before the targets above.</p>
      {rules.map((rule, i) => (
        <RuleFields
          key={i}
          index={i}
          count={rules.length}
          rule={rule}
          onChange={(r) =>
            set(
              'rules',
              rules.map((old, j) => (j === i ? r : old)),
            )
          }
          onMove={(by) => set('rules', moved(rules, i, by))}
          onRemove={() =>
            set(
              'rules',
              rules.filter((_, j) => j !== i),
            )
          }
        />
      ))}
      {rules.length < MAX_RULES && (
        <button type="button" className="small secondary block-button" onClick={() => set('rules', [...rules, newRule()])}>
          Add rule
        </button>
      )}
      <DefaultSplit {...{ form, set }} />
      <div className="grid tight">
        <FormField id="maxvisits" label="Visit cap" hint="After this many clicks the link behaves as expired. Empty: no cap.">
          <input
            id="maxvisits"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={form.maxvisits}
            onChange={(e) => set('maxvisits', e.target.value)}
          />
        </FormField>
        <FormField id="expiredurl" label="When expired, send to" hint="Once past its expiry or cap. Empty: a page saying the link expired.">
          <input id="expiredurl" type="url" inputMode="url" value={form.expiredurl} onChange={(e) => set('expiredurl', e.target.value)} />
        </FormField>
      </div>
    </>
  );
}

/** Everyone no rule or target catches: the destination, or a split of it between 2 to 10 addresses. */
function DefaultSplit({ form, set }: SectionProps) {
  if (!form.split.length)
    return (
      <p className="split-offer">
        <button type="button" className="small secondary" onClick={() => set('split', newSplit(withScheme(form.url)))}>
          Split the destination between addresses
        </button>{' '}
        <span className="muted small">An A/B test: each visitor keeps the address they got.</span>
      </p>
    );
  return (
    <>
      <SplitFields legend="Default split" id="split" split={form.split} onChange={(split) => set('split', split)} />
      <p className="split-offer">
        <span className="muted small">Visitors no rule catches are split instead of sent to the destination.</span>{' '}
        <button type="button" className="small secondary" onClick={() => set('split', [])}>
          Remove the split
        </button>
      </p>
    </>
  );
}
