import { AREAS, type Access, type AreaAccess } from './scopes.js';

export interface ScopeChoice {
  full: boolean;
  areas: AreaAccess;
}

const LEVELS: { value: Access; label: string }[] = [
  { value: 'none', label: 'No access' },
  { value: 'read', label: 'Read' },
  { value: 'write', label: 'Read & write' },
];

/**
 * What a new key may do: full access, or per area of the API nothing, reading, or reading and writing.
 * The per-area choices stay in place while full access is on, so turning it off gives them back.
 */
export function ScopePicker({ value, onChange }: { value: ScopeChoice; onChange(value: ScopeChoice): void }) {
  const setArea = (area: keyof AreaAccess, access: Access) => onChange({ ...value, areas: { ...value.areas, [area]: access } });
  return (
    <fieldset className="scopes">
      <legend>Access</legend>
      <label className="check">
        <input
          type="checkbox"
          id="key-full"
          checked={value.full}
          onChange={(e) => onChange({ ...value, full: e.target.checked })}
          aria-describedby="key-full-hint"
        />
        Full access
      </label>
      <p id="key-full-hint" className="muted small">
        Everything your account can do, as signing in does. Give a program only what it needs instead.
      </p>
      {!value.full && (
        <div className="scope-grid">
          {AREAS.map(({ area, label }) => (
            <div className="field" key={area}>
              <label htmlFor={`scope-${area}`}>{label}</label>
              <select id={`scope-${area}`} value={value.areas[area]} onChange={(e) => setArea(area, e.target.value as Access)}>
                {LEVELS.map((level) => (
                  <option key={level.value} value={level.value}>
                    {level.label}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </div>
      )}
    </fieldset>
  );
}
