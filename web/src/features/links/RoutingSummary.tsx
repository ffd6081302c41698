import type { ReactNode } from 'react';
import type { LinkDetailBody } from '../../lib/types.js';
import { formatDateTime, formatNumber, plural } from '../../lib/ui.js';
import { TYPE_LABELS } from './ConditionFields.js';
import { countryLabel } from './countries.js';
import type { ConditionType } from './routing-form.js';

type Details = LinkDetailBody['details'];
type Condition = Details['rules'][number]['conditions'][number];
type Variant = { url: string; weight: number };
type VariantStats = LinkDetailBody['data']['variants'];

/** A condition in words: `ref = mail`, `IP address in 203.0.113.0/24`, `Date from … until …`. */
export function conditionText(c: Condition): string {
  const label = (TYPE_LABELS[c.type as ConditionType] ?? c.type).toLowerCase();
  if (c.type === 'query') return c.absent ? `no ${c.name} parameter` : c.value !== undefined ? `${c.name} = ${c.value}` : `${c.name} present`;
  if (c.type === 'ip') return `IP address in ${c.value}`;
  if (c.type === 'date')
    return ['date', c.after && `from ${formatDateTime(c.after)}`, c.before && `until ${formatDateTime(c.before)}`].filter(Boolean).join(' ');
  return `${label} ${c.type === 'country' ? countryLabel(c.value ?? '') : c.value}`;
}

/** A split's variants with their shares and, when counted, their clicks; `first` is the first one's index in data.variants. */
function SplitList({ split, stats, first }: { split: Variant[]; stats: VariantStats; first: number }) {
  const total = split.reduce((sum, v) => sum + v.weight, 0);
  return (
    <ol className="split-list">
      {split.map((v, k) => {
        const counted = stats?.[first + k];
        return (
          <li key={k}>
            <strong>{Math.round((v.weight * 100) / total)}%</strong> {v.url}
            {counted && (
              <span className="muted">
                {' '}
                · {formatNumber(counted.clicks)} {plural(counted.clicks, 'click')}, {formatNumber(counted.uniqueClicks)} unique
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <div>
    <dt>{label}</dt>
    <dd>{children}</dd>
  </div>
);

/** The link page's rules, default split (with each variant's clicks) and cap, read-only; nothing when none is set. */
export function RoutingRows({ details, variants }: { details: Details; variants: VariantStats }) {
  // data.variants numbers the default split's variants first, then each rule split's in rule order.
  let next = details.split.length;
  const rules = details.rules.map((rule) => {
    const first = next;
    next += rule.split?.length ?? 0;
    return { rule, first };
  });
  return (
    <>
      {rules.map(({ rule, first }, i) => (
        <Row key={i} label={`Rule ${i + 1}`}>
          <span className="rule-when">If {rule.conditions.map(conditionText).join(' and ')}</span>
          {rule.split ? <SplitList split={rule.split} stats={variants} first={first} /> : <div className="rule-url">→ {rule.url}</div>}
        </Row>
      ))}
      {details.split.length > 0 && (
        <Row label="Split">
          <SplitList split={details.split} stats={variants} first={0} />
        </Row>
      )}
      {details.maxvisits ? <Row label="Visit cap">{formatNumber(details.maxvisits)} clicks</Row> : null}
      {details.expiredurl && <Row label="When expired">{details.expiredurl}</Row>}
    </>
  );
}
