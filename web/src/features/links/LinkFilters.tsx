import type { LinkChoices, LinkQuery } from './api.js';
import { FILTERS, type FilterName } from './useLinkQuery.js';

const LABELS: Record<FilterName, { label: string; any: string }> = {
  campaign: { label: 'Campaign', any: 'All campaigns' },
  channel: { label: 'Channel', any: 'All channels' },
  domain: { label: 'Domain', any: 'All domains' },
};

/** The filters' choices, as GET /api/urls takes them: campaign and channel ids, a domain's address. */
function options(choices: LinkChoices | undefined, name: FilterName): { value: string; label: string }[] {
  if (!choices) return [];
  if (name === 'domain') return choices.domains.map((d) => ({ value: d.domain, label: d.domain.replace(/^https?:\/\//, '') }));
  return (name === 'campaign' ? choices.campaigns : choices.channels).map((c) => ({ value: String(c.id), label: c.name }));
}

function filterChange(name: FilterName, value: string): Partial<LinkQuery> {
  const change: Partial<LinkQuery> = {};
  change[name] = value;
  return change;
}

/** One select per filter; a filter the list no longer offers (deleted since) still shows, so it can be cleared. */
export function LinkFilters({
  query,
  choices,
  onChange,
}: {
  query: LinkQuery;
  choices: LinkChoices | undefined;
  onChange(change: Partial<LinkQuery>): void;
}) {
  return (
    <>
      {FILTERS.map((name) => {
        const value = query[name] ?? '';
        const list = options(choices, name);
        const known = !value || list.some((o) => o.value === value);
        return (
          <div className="field" key={name}>
            <label htmlFor={`filter-${name}`}>{LABELS[name].label}</label>
            <select id={`filter-${name}`} value={value} onChange={(e) => onChange(filterChange(name, e.target.value))}>
              <option value="">{LABELS[name].any}</option>
              {!known && <option value={value}>{value}</option>}
              {list.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        );
      })}
    </>
  );
}
